#include "rl_pool.h"
#include "ext/standard/info.h"

static HashTable pool; /* pool key => rl_conn * (malloc'd, outlives requests) */

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
    rl_conn *c;
    char row[160];
    ZEND_HASH_FOREACH_PTR(&pool, c) {
        snprintf(row, sizeof row, "%s, db %ld: %s, %llu connects, %llu reconnects, %llu dropped",
                 c->ep.unix_path ? "unix" : "tcp", c->ep.database, c->fd >= 0 ? "open" : "closed",
                 (unsigned long long)c->stats.connects, (unsigned long long)c->stats.reconnects,
                 (unsigned long long)c->stats.dropped);
        php_info_print_table_row(2, c->name, row);
    } ZEND_HASH_FOREACH_END();
}
