#include "rl_form_cluster.h"
#include "rl_form_address.h"
#include "php_redislock.h"
#include "zend_exceptions.h"
#include "src/base/rl_status.h"
#include "rl_class_errors.h"
#include "src/topology/rl_node_cluster.h"

static bool is_redis_cluster(zval *server)
{
    zend_class_entry *ce = zend_hash_str_find_ptr(EG(class_table), "rediscluster", 12);
    return ce != NULL && Z_TYPE_P(server) == IS_OBJECT && instanceof_function(Z_OBJCE_P(server), ce);
}

bool rl_cluster_is_form(zval *server)
{
    ZVAL_DEREF(server);
    return (Z_TYPE_P(server) == IS_ARRAY && zend_hash_str_exists(Z_ARRVAL_P(server), "cluster", 7))
           || is_redis_cluster(server);
}

/* A phpredis \RedisCluster: its masters (_masters(): [[host, port], ...])
 * as the seed list, in *seeds (an array the caller frees). phpredis does
 * not let its password or timeouts be read: those come from $options. */
static zend_result redis_cluster_seeds(zval *obj, zval *seeds, uint32_t argnum, const char *what)
{
    zend_function *fn = zend_hash_str_find_ptr_lc(&Z_OBJCE_P(obj)->function_table, "_masters", 8);
    zval ret, *m;

    ZVAL_UNDEF(seeds);
    if (fn == NULL) {
        zend_argument_value_error(argnum, "%smust be a connected RedisCluster object", what);
        return FAILURE;
    }
    ZVAL_UNDEF(&ret);
    zend_call_known_instance_method_with_0_params(fn, Z_OBJ_P(obj), &ret);
    if (EG(exception)) {
        zval_ptr_dtor(&ret);
        return FAILURE;
    }
    array_init(seeds);
    if (Z_TYPE(ret) == IS_ARRAY) {
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL(ret), m) {
            zval *host, *port, one;
            ZVAL_DEREF(m);
            if (Z_TYPE_P(m) != IS_ARRAY || (host = zend_hash_index_find(Z_ARRVAL_P(m), 0)) == NULL
                || (port = zend_hash_index_find(Z_ARRVAL_P(m), 1)) == NULL || Z_TYPE_P(host) != IS_STRING
                || Z_TYPE_P(port) != IS_LONG) {
                continue;
            }
            array_init(&one);
            add_assoc_str(&one, "host", zend_string_copy(Z_STR_P(host)));
            add_assoc_long(&one, "port", Z_LVAL_P(port));
            add_next_index_zval(seeds, &one);
        }
        ZEND_HASH_FOREACH_END();
    }
    zval_ptr_dtor(&ret);
    if (zend_hash_num_elements(Z_ARRVAL_P(seeds)) == 0) {
        zval_ptr_dtor(seeds);
        ZVAL_UNDEF(seeds);
        zend_argument_value_error(argnum, "%smust be a connected RedisCluster object (it knows no master)", what);
        return FAILURE;
    }
    return SUCCESS;
}

static rl_node *cluster_new(zval *server, const rl_settings *s, const rl_conn_source *conns, uint32_t argnum,
                            const char *what);

rl_node *rl_cluster_from_zval(zval *server, const rl_settings *s, const rl_conn_source *conns, uint32_t argnum,
                              const char *what)
{
    zval seeds, form;
    rl_node *node;

    ZVAL_DEREF(server);
    if (!is_redis_cluster(server)) {
        return cluster_new(server, s, conns, argnum, what);
    }
    if (redis_cluster_seeds(server, &seeds, argnum, what) == FAILURE) {
        return NULL;
    }
    array_init(&form);
    add_assoc_zval(&form, "cluster", &seeds);
    node = cluster_new(&form, s, conns, argnum, what);
    zval_ptr_dtor(&form);
    return node;
}

/* Seed i of the list, checked: a TCP address of database 0, of the first
 * seed's scheme. */
static zend_result seed_of(rl_endpoint *ep, zval *one, const rl_endpoint *first, const rl_settings *s, uint32_t argnum,
                           const char *w)
{
    if (Z_TYPE_P(one) == IS_ARRAY
        && (rl_cluster_is_form(one) || zend_hash_str_exists(Z_ARRVAL_P(one), "sentinels", 9))) {
        zend_argument_value_error(argnum, "%smust be a node address, not a group of nodes", w);
        return FAILURE;
    }
    if (rl_endpoint_from_zval(ep, one, s, argnum, w) == FAILURE) {
        return FAILURE;
    }
    if (ep->unix_path != NULL || ep->database != 0) {
        zend_argument_value_error(argnum,
                                  ep->unix_path ? "%smust be a TCP address: cluster nodes name "
                                                  "each other by host and port"
                                                : "%smust not select a database: a "
                                                  "cluster has only database 0",
                                  w);
    } else if (first != NULL && ep->tls != first->tls) {
        zend_argument_value_error(argnum,
                                  "%suses %s, the first seed does not: give every seed the same "
                                  "scheme",
                                  w, ep->tls ? "TLS" : "plaintext");
    } else {
        return SUCCESS;
    }
    rl_endpoint_clear(ep);
    return FAILURE;
}

static rl_node *cluster_new(zval *server, const rl_settings *s, const rl_conn_source *conns, uint32_t argnum,
                            const char *what)
{
    HashTable *ht = Z_ARRVAL_P(server);
    zval *seeds;
    zend_string *key;
    rl_endpoint *eps;
    rl_node *node = NULL;
    size_t i, n, made = 0;

    ZEND_HASH_FOREACH_STR_KEY(ht, key) {
        if (key == NULL || !zend_string_equals_literal(key, "cluster")) {
            zend_argument_value_error(argnum,
                                      "%smust be a cluster with only the key \"cluster\" (its seed "
                                      "nodes; options such as the password go in $options)",
                                      what);
            return NULL;
        }
    }
    ZEND_HASH_FOREACH_END();
    seeds = zend_hash_str_find_deref(ht, "cluster", 7);
    if (seeds == NULL || Z_TYPE_P(seeds) != IS_ARRAY || zend_hash_num_elements(Z_ARRVAL_P(seeds)) == 0
        || !zend_array_is_list(Z_ARRVAL_P(seeds))) {
        zend_argument_value_error(argnum, "%s[\"cluster\"] must be a non-empty list of seed node addresses", what);
        return NULL;
    }
    n = zend_hash_num_elements(Z_ARRVAL_P(seeds));
    if ((eps = calloc(n, sizeof *eps)) == NULL) {
        return NULL;
    }
    for (i = 0; i < n; i++) {
        char w[96];
        snprintf(w, sizeof w, "%s[\"cluster\"][%zu] ", what, i);
        if (seed_of(&eps[i], zend_hash_index_find(Z_ARRVAL_P(seeds), (zend_ulong)i), i ? &eps[0] : NULL, s, argnum, w)
            == FAILURE) {
            goto done;
        }
        made = i + 1;
    }
    node = rl_cluster_node_new(eps, n, conns, &RLG(topology)); /* NULL: out of memory (the caller throws) */
done:
    rl_endpoints_free(eps, made);
    return node;
}
