#include "rl_pool.h"
#include "ext/standard/info.h"

static HashTable pool; /* pool key => rl_conn * (malloc'd, outlives requests) */

/* The role is the pool key's last part: "" commands, "wait" blocking reads. */
static const char *role_of(zend_string *pool_key)
{
    const char *slash = strrchr(ZSTR_VAL(pool_key), '/');
    return slash && slash[1] ? slash + 1 : "command";
}

static void free_conn(zval *zv)
{
    rl_conn_free(Z_PTR_P(zv));
}

void rl_pool_init(void)
{
    zend_hash_init(&pool, 8, NULL, free_conn, 1);
}

void rl_pool_shutdown(void)
{
    zend_hash_destroy(&pool);
}

/* FNV-1a: enough to keep different passwords apart; the key is never shown. */
static uint64_t fingerprint(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; s && *s; s++) {
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    }
    return h;
}

rl_conn *rl_pool_get(const rl_endpoint *ep, const char *role)
{
    char name[300], key[600];
    size_t len;
    rl_conn *c;

    rl_endpoint_describe(ep, name, sizeof name);
    len = (size_t)snprintf(key, sizeof key, "%s/%ld/%s/%016llx/%s", name, ep->database,
                           ep->username ? ep->username : "",
                           (unsigned long long)fingerprint(ep->password), role);
    c = zend_hash_str_find_ptr(&pool, key, len);
    if (c == NULL) {
        c = rl_conn_new(ep);
        if (c != NULL) {
            zend_hash_str_add_new_ptr(&pool, key, len, c);
        }
    }
    return c;
}

void rl_pool_settle(void)
{
    rl_conn *c;
    ZEND_HASH_FOREACH_PTR(&pool, c) {
        rl_conn_settle(c);
    } ZEND_HASH_FOREACH_END();
}

void rl_pool_info(void)
{
    zend_string *k;
    rl_conn *c;
    char row[200];
    ZEND_HASH_FOREACH_STR_KEY_PTR(&pool, k, c) {
        snprintf(row, sizeof row, "%s, db %ld, %s: %s, %llu connects, %llu reconnects, %llu dropped",
                 c->ep.unix_path ? "unix" : "tcp", c->ep.database, role_of(k), c->fd >= 0 ? "open" : "closed",
                 (unsigned long long)c->stats.connects, (unsigned long long)c->stats.reconnects,
                 (unsigned long long)c->stats.dropped);
        php_info_print_table_row(2, c->name, row);
    } ZEND_HASH_FOREACH_END();
}

void rl_pool_to_array(zval *out)
{
    zend_string *k;
    rl_conn *c;
    array_init(out);
    ZEND_HASH_FOREACH_STR_KEY_PTR(&pool, k, c) {
        zval row;
        array_init(&row);
        add_assoc_string(&row, "endpoint", c->name);
        add_assoc_long(&row, "database", c->ep.database);
        add_assoc_string(&row, "role", (char *)role_of(k));
        add_assoc_bool(&row, "open", c->fd >= 0);
        add_assoc_long(&row, "connects", (zend_long)c->stats.connects);
        add_assoc_long(&row, "reconnects", (zend_long)c->stats.reconnects);
        add_assoc_long(&row, "dropped", (zend_long)c->stats.dropped);
        add_next_index_zval(out, &row);
    } ZEND_HASH_FOREACH_END();
}
