#include "rl_module_observe.h"
#include "src/topology/rl_key_names.h"
#include "ext/standard/info.h"
#include "SAPI.h"
#include <unistd.h>
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "src/lock/rl_watchdog.h"
#include "src/lock/rl_wait.h"
#include "src/topology/rl_node.h"
#include "src/transport/rl_evict.h"
#include "rl_object_on_lost.h"

static bool has_log_method(zval *logger)
{
    return Z_TYPE_P(logger) == IS_OBJECT && zend_hash_str_exists(&Z_OBJCE_P(logger)->function_table, "log", 3);
}

zend_result rl_logger_check(zval *logger, uint32_t argnum)
{
    if (has_log_method(logger) || zend_is_callable(logger, 0, NULL)) {
        return SUCCESS;
    }
    zend_argument_type_error(argnum, "option \"logger\" must be a callable or an object with a log() method, %s given",
                             zend_zval_type_name(logger));
    return FAILURE;
}

const char *rl_resource_of(zend_string *key, size_t prefix_len, size_t *len)
{
    size_t at = 0, n = ZSTR_LEN(key);
    /* an escaped name's key holds its name (prefix and resource) inside */
    if (!rl_key_listed(ZSTR_VAL(key), ZSTR_LEN(key), &at, &n) || n < prefix_len) {
        at = 0;
        n = ZSTR_LEN(key);
    }
    *len = n - prefix_len;
    return ZSTR_VAL(key) + at + prefix_len;
}

/* Calls the logger with (level, message, context); message is consumed. */
static void call_logger(zval *logger, const char *level, zend_string *message, zval *context)
{
    zval args[3], ret;

    ZVAL_STRING(&args[0], level);
    ZVAL_STR(&args[1], message);
    ZVAL_COPY_VALUE(&args[2], context);
    ZVAL_UNDEF(&ret);
    rl_on_lost_quiet(true);       /* a lock lost meanwhile is told after the logger, not inside it */
    if (has_log_method(logger)) { /* a PSR-3 logger */
        zend_function *fn = zend_hash_str_find_ptr(&Z_OBJCE_P(logger)->function_table, "log", 3);
        zend_call_known_instance_method(fn, Z_OBJ_P(logger), &ret, 3, args);
    } else {
        call_user_function(NULL, NULL, logger, &ret, 3, args);
    }
    rl_on_lost_quiet(false);
    zval_ptr_dtor(&ret);
    zval_ptr_dtor(&args[0]);
    zval_ptr_dtor(&args[1]);
}

static bool can_log(zval *logger)
{
    return logger != NULL && Z_TYPE_P(logger) != IS_UNDEF && !(EG(flags) & EG_FLAGS_IN_SHUTDOWN) && !EG(exception);
}

void rl_log(zval *logger, const char *level, const char *event, zend_string *key, size_t prefix_len, zval *context)
{
    size_t resource_len;
    const char *resource = rl_resource_of(key, prefix_len, &resource_len);
    zval ctx;

    if (!can_log(logger)) {
        return;
    }
    ZVAL_COPY(&ctx, context);
    add_assoc_string(&ctx, "event", (char *)event);
    add_assoc_stringl(&ctx, "resource", (char *)resource, resource_len);
    add_assoc_str(&ctx, "key", zend_string_copy(key));
    call_logger(logger, level, zend_strpprintf(0, "redislock: %s %.*s", event, (int)resource_len, resource), &ctx);
    zval_ptr_dtor(&ctx);
}

void rl_log_node(zval *logger, const char *level, const char *event, const char *node, zval *context)
{
    zval ctx;

    if (!can_log(logger)) {
        return;
    }
    ZVAL_COPY(&ctx, context);
    add_assoc_string(&ctx, "event", (char *)event);
    add_assoc_string(&ctx, "node", (char *)node);
    call_logger(logger, level, zend_strpprintf(0, "redislock: %s %s", event, node), &ctx);
    zval_ptr_dtor(&ctx);
}

void rl_counters_info(void)
{
    char n[24];
    rl_topology_counts tc;
    rl_wait_counts wc;
#define ROW_OF(label, value)                                    \
    snprintf(n, sizeof n, ZEND_ULONG_FMT, (zend_ulong)(value)); \
    php_info_print_table_row(2, label, n);
#define ROW(label, field) ROW_OF(label, RL_STAT(field))
    ROW("Locks acquired", acquired);
    ROW("Shared locks acquired", acquired_shared);
    ROW("Permits acquired", acquired_permits);
    ROW("Lock attempts contended", contended);
    ROW("Operations failed", failed);
    ROW("Locks released", released);
    ROW("Locks auto-released", auto_released);
    ROW("Locks expired before release", expired);
    ROW("Locks lost by the watchdog", lost);
    rl_topology_counts_get(&tc);
    ROW_OF("Cluster redirections followed", tc.redirects);
    ROW_OF("Cluster slot maps fetched", tc.map_refreshes);
    ROW_OF("Cluster releases on the lock key alone (slot migrating)", tc.one_key_releases);
    ROW("Grants taken back: their reply came after the TTL", late_grants);
    rl_wait_counts_get(&wc);
    ROW_OF("Waits ended by the release's wake", wc.woken);
    ROW_OF("Waits ended by a recheck or the holder's TTL", wc.rechecked);
    ROW_OF("Waiters' blocking reads failed", wc.wake_errors);
    ROW_OF("Redis nodes that can evict lock keys (maxmemory, a policy other than noeviction)", rl_evict_nodes());
#undef ROW
#undef ROW_OF
}

void rl_counters_to_array(zval *out)
{
    uint64_t extended, lost;
    rl_topology_counts tc;
    rl_wait_counts wc;

    array_init(out);
    add_assoc_long(out, "acquired", (zend_long)RL_STAT(acquired));
    add_assoc_long(out, "acquired_shared", (zend_long)RL_STAT(acquired_shared));
    add_assoc_long(out, "acquired_permits", (zend_long)RL_STAT(acquired_permits));
    add_assoc_long(out, "contended", (zend_long)RL_STAT(contended));
    add_assoc_long(out, "failed", (zend_long)RL_STAT(failed));
    add_assoc_long(out, "released", (zend_long)RL_STAT(released));
    add_assoc_long(out, "auto_released", (zend_long)RL_STAT(auto_released));
    add_assoc_long(out, "expired", (zend_long)RL_STAT(expired));
    add_assoc_long(out, "lost", (zend_long)RL_STAT(lost));
    rl_watch_counts(&extended, &lost);
    add_assoc_long(out, "auto_extended", (zend_long)extended);
    rl_topology_counts_get(&tc);
    add_assoc_long(out, "cluster_redirects", (zend_long)tc.redirects);
    add_assoc_long(out, "cluster_map_refreshes", (zend_long)tc.map_refreshes);
    add_assoc_long(out, "cluster_one_key_releases", (zend_long)tc.one_key_releases);
    add_assoc_long(out, "late_grants", (zend_long)RL_STAT(late_grants));
    rl_wait_counts_get(&wc);
    add_assoc_long(out, "waits_woken", (zend_long)wc.woken);
    add_assoc_long(out, "waits_rechecked", (zend_long)wc.rechecked);
    add_assoc_long(out, "wake_errors", (zend_long)wc.wake_errors);
    add_assoc_long(out, "eviction_risk_nodes", (zend_long)rl_evict_nodes());
}

/* NULL when the metrics are the pool's (or, outside php-fpm, shared with
 * the processes this one forks), else why they are this process's only. */
static const char *metrics_alone(void)
{
    if (!rl_metrics_shared()) {
        return "no: the system refused shared memory, these are this process's numbers only";
    }
    if (sapi_module.name != NULL && strcmp(sapi_module.name, "fpm-fcgi") == 0
        && rl_metrics_opener() == (long)getpid()) {
        return "no: this worker loaded the extension itself (the pool's php_admin_value[extension]), after php-fpm "
               "forked it; these are its numbers only. Load it in php.ini for the pool's";
    }
    return NULL;
}

void rl_metrics_info(void)
{
    rl_metrics_view v;
    const char *alone = metrics_alone();
    char n[48];
    int i, code;

    rl_metrics_read(&v);
    php_info_print_table_row(2, "Shared by the processes forked after start (php-fpm's workers)",
                             alone != NULL ? alone : "yes");
    for (i = 0; i < RL_M_COUNT; i++) {
        snprintf(n, sizeof n, "%llu", (unsigned long long)v.counters[i]);
        php_info_print_table_row(2, rl_metric_name((rl_metric)i), n);
    }
    for (code = 1; code <= RL_STATUS_MAX; code++) {
        if (v.errors[code] > 0) {
            char label[64];
            snprintf(label, sizeof label, "errors: %s (code %d)", rl_status_name(code), code);
            snprintf(n, sizeof n, "%llu", (unsigned long long)v.errors[code]);
            php_info_print_table_row(2, label, n);
        }
    }
    snprintf(n, sizeof n, "%llu, %.3f s in all", (unsigned long long)v.hist[RL_H_WAITED].count,
             v.hist[RL_H_WAITED].sum_us / 1e6);
    php_info_print_table_row(2, "lock calls that waited", n);
    snprintf(n, sizeof n, "%llu, %.3f s in all", (unsigned long long)v.hist[RL_H_HELD].count,
             v.hist[RL_H_HELD].sum_us / 1e6);
    php_info_print_table_row(2, "locks held to their release", n);
}

zend_string *rl_metrics_text(void)
{
    rl_metrics_view v;
    const char *alone = metrics_alone();
    size_t need, head = 0;
    zend_string *s;

    rl_metrics_read(&v);
    need = rl_metrics_prometheus(&v, NULL, 0);
    if (alone != NULL) { /* a comment line, which scrapers skip */
        head = strlen("# redislock: pool-wide ") + strlen(alone) + 1;
    }
    s = zend_string_alloc(head + need, 0);
    if (alone != NULL) {
        snprintf(ZSTR_VAL(s), head + 1, "# redislock: pool-wide %s\n", alone);
    }
    rl_metrics_prometheus(&v, ZSTR_VAL(s) + head, need + 1);
    ZSTR_LEN(s) = head + need;
    return s;
}
