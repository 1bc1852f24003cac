#include "rl_pool.h"
#include "php_redislock.h"
#include "ext/standard/info.h"
#include "ext/hash/php_hash.h"
#include "ext/hash/php_hash_sha.h"
#include "src/transport/rl_pool_key.h"

/* RLG(pool): pool key => rl_conn * (malloc'd, outlives requests) */

static void free_conn(zval *zv)
{
    rl_conn_free(Z_PTR_P(zv));
}

void rl_pool_init(HashTable *table)
{
    zend_hash_init(table, 8, NULL, free_conn, 1);
}

void rl_pool_shutdown(HashTable *table)
{
    zend_hash_destroy(table);
}

void rl_password_digest(const char *password, size_t len, unsigned char digest[32])
{
    PHP_SHA256_CTX ctx;
    PHP_SHA256Init(&ctx);
    PHP_SHA256Update(&ctx, (const unsigned char *)password, len);
    PHP_SHA256Final(digest, &ctx);
}

rl_conn *rl_pool_get(const rl_endpoint *ep, rl_conn_role role)
{
    /* The password enters the key as its digest: exact for any length */
    unsigned char digest[32];
    char *key;
    size_t len;
    rl_conn *c;

    if (ep->password) {
        rl_password_digest(ep->password, strlen(ep->password), digest);
    }
    if (rl_pool_key(ep, role, ep->password ? digest : NULL, sizeof digest, &key, &len) != 0) {
        return NULL;
    }
    c = zend_hash_str_find_ptr(&RLG(pool), key, len);
    if (c == NULL) {
        c = rl_conn_new(ep, role);
        if (c != NULL) {
            zend_hash_str_add_new_ptr(&RLG(pool), key, len, c);
        }
    }
    free(key);
    return c;
}

/* A pooled connection stays in the pool when a node lets it go. */
static void pool_keeps(rl_conn *c)
{
    (void)c;
}

const rl_conn_source rl_pool_conns = {rl_pool_get, pool_keeps};

void rl_pool_settle(void)
{
    rl_conn *c;
    ZEND_HASH_FOREACH_PTR(&RLG(pool), c) {
        rl_conn_settle(c);
    }
    ZEND_HASH_FOREACH_END();
}

void rl_pool_info(void)
{
    rl_conn *c;
    char row[200];
    ZEND_HASH_FOREACH_PTR(&RLG(pool), c) {
        snprintf(row, sizeof row, "%s, db %ld, %s: %s, %llu connects, %llu reconnects, %llu dropped",
                 c->ep.unix_path ? "unix"
                 : c->ep.tls     ? "tls"
                                 : "tcp",
                 c->ep.database, rl_conn_role_name(c->role), c->fd >= 0 ? "open" : "closed",
                 (unsigned long long)c->stats.connects, (unsigned long long)c->stats.reconnects,
                 (unsigned long long)c->stats.dropped);
        php_info_print_table_row(2, c->name, row);
    }
    ZEND_HASH_FOREACH_END();
}

void rl_pool_to_array(zval *out)
{
    rl_conn *c;
    array_init(out);
    ZEND_HASH_FOREACH_PTR(&RLG(pool), c) {
        zval row;
        array_init(&row);
        add_assoc_string(&row, "endpoint", c->name);
        add_assoc_long(&row, "database", c->ep.database);
        add_assoc_bool(&row, "tls", c->ep.tls != 0);
        add_assoc_string(&row, "role", (char *)rl_conn_role_name(c->role));
        add_assoc_bool(&row, "open", c->fd >= 0);
        add_assoc_long(&row, "connects", (zend_long)c->stats.connects);
        add_assoc_long(&row, "reconnects", (zend_long)c->stats.reconnects);
        add_assoc_long(&row, "dropped", (zend_long)c->stats.dropped);
        add_next_index_zval(out, &row);
    }
    ZEND_HASH_FOREACH_END();
}
