/* class RedisLock: one node. */
#include "rl_class_redislock.h"
#include "src/base/rl_pid.h"
#include "rl_object_lock.h"
#include "rl_method_lock.h"
#include "rl_method_list.h"
#include "rl_module_observe.h"
#include "rl_pool.h"

zend_class_entry *rl_ce_redislock;
void rl_redislock_init(zend_class_entry *ce)
{
    rl_ce_redislock = ce;
    ce->create_object = rl_object_create;
}

RL_METHOD_REPORTS(RedisLock, __construct)
{
    zval *server = NULL, def;
    HashTable *options = NULL;
    rl_object *o = Z_RL_OBJ_P(ZEND_THIS);
    rl_settings s;

    /* First, before anything that can run user code (a \Redis subclass's
     * getHost(), an autoloader reached through the logger option). */
    if (!rl_object_construct_begin(o)) {
        RETURN_THROWS();
    }
    ZEND_PARSE_PARAMETERS_START_EX(0, 0, 2)
        Z_PARAM_OPTIONAL
        Z_PARAM_ZVAL(server)
        Z_PARAM_ARRAY_HT(options)
    ZEND_PARSE_PARAMETERS_END_EX(rl_object_construct_end(o); RETURN_THROWS());

    ZVAL_STRINGL(&def, "127.0.0.1:6379", 14);
    if (rl_settings_parse(&s, options, 2, false) == SUCCESS && !EG(exception)) {
        rl_object_setup(o, &s, server ? server : &def, 1, 1, false);
    }
    rl_settings_free(&s);
    zval_ptr_dtor(&def);
    rl_object_construct_end(o);
}

RL_METHOD_REPORTS(RedisLock, acquireLock)
{
    zend_string *resource, *key, *token = NULL;
    zend_long timeout = 10;
    rl_object *o;
    int r;

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_STR(resource)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(timeout)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS)) || !(key = rl_object_key(o, resource, 1))) {
        RETURN_THROWS();
    }
    if (!rl_check_positive(timeout, 2, RL_MAX_TTL_MS / 1000)) {
        zend_string_release(key);
        RETURN_THROWS();
    }
    r = rl_lock_try(o, key, &rl_kind_exclusive, timeout * 1000, &token, true);
    zend_string_release(key);
    if (token) {
        zend_string_release(token);
    }
    if (r < 0 || EG(exception)) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}

RL_METHOD_REPORTS(RedisLock, releaseLock)
{
    zend_string *resource, *key;
    rl_object *o;
    rl_held *h;
    int r = 0;

    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_STR(resource)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS)) || !(key = rl_object_key(o, resource, 1))) {
        RETURN_THROWS();
    }
    h = rl_held_find(o, key);
    if (h != NULL && h->pid == rl_pid()) { /* only a lock this object took, in this process */
        zend_string *token = zend_string_copy(h->token);
        r = rl_lock_release(o, key, token);
        zend_string_release(token);
    }
    zend_string_release(key);
    if (r < 0) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}

RL_METHOD_REPORTS(RedisLock, lock)
{
    rl_method_lock_waiting(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

RL_METHOD_REPORTS(RedisLock, acquirePermit)
{
    zend_string *resource;
    zend_long limit, ttl;
    double wait = 0.0;
    rl_kind kind = {.mode = RL_MODE_PERMIT};
    rl_object *o;

    ZEND_PARSE_PARAMETERS_START(3, 4)
        Z_PARAM_STR(resource)
        Z_PARAM_LONG(limit)
        Z_PARAM_LONG(ttl)
        Z_PARAM_OPTIONAL
        Z_PARAM_DOUBLE(wait)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS)) || !rl_check_positive(limit, 2, RL_MAX_PERMITS) || !rl_check_wait(wait, 4)) {
        RETURN_THROWS();
    }
    kind.limit = limit;
    rl_method_lock(o, resource, &kind, ttl, wait, NULL, return_value);
}

PHP_METHOD(RedisLock, metrics)
{
    ZEND_PARSE_PARAMETERS_NONE();

    RETURN_STR(rl_metrics_text());
}

/* Per-worker counters and the connection pool, as phpinfo() shows them. */
PHP_METHOD(RedisLock, stats)
{
    zval pool;

    ZEND_PARSE_PARAMETERS_NONE();

    rl_counters_to_array(return_value);
    rl_pool_to_array(&pool);
    add_assoc_zval(return_value, "connections", &pool);
}

/* Its PHP_METHOD of each method both classes share (rl_method_list.h). */
#define RL_REDISLOCK_METHOD(name, body)         \
    RL_METHOD_REPORTS(RedisLock, name)          \
    {                                           \
        body(INTERNAL_FUNCTION_PARAM_PASSTHRU); \
    }
RL_SHARED_METHODS(RL_REDISLOCK_METHOD)
