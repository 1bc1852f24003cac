/* class RedLock: a quorum of independent nodes, all asked at once. */
#include "rl_class_redlock.h"
#include "rl_object_lock.h"
#include "rl_method_lock.h"
#include "rl_method_list.h"

zend_class_entry *rl_ce_redlock;
void rl_redlock_init(zend_class_entry *ce)
{
    rl_ce_redlock = ce;
    ce->create_object = rl_object_create;
}

#define MAX_NODES 64

RL_METHOD_REPORTS(RedLock, __construct)
{
    HashTable *servers, *options = NULL;
    zend_long retry_delay = 200, retry_count = 3;
    rl_object *o = Z_RL_OBJ_P(ZEND_THIS);
    rl_settings s;
    zval list;
    uint32_t n;

    /* First, before anything that can run user code (see RedisLock). */
    if (!rl_object_construct_begin(o)) {
        RETURN_THROWS();
    }
    ZEND_PARSE_PARAMETERS_START_EX(0, 1, 4)
        Z_PARAM_ARRAY_HT(servers)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(retry_delay)
        Z_PARAM_LONG(retry_count)
        Z_PARAM_ARRAY_HT(options)
    ZEND_PARSE_PARAMETERS_END_EX(rl_object_construct_end(o); RETURN_THROWS());

    n = zend_hash_num_elements(servers);
    if (n == 0 || n > MAX_NODES) {
        zend_argument_value_error(1, "must hold between 1 and %d servers", MAX_NODES);
        rl_object_construct_end(o);
        RETURN_THROWS();
    }
    if (!zend_array_is_list(servers)) {
        zend_argument_value_error(1, "must be a list of servers");
        rl_object_construct_end(o);
        RETURN_THROWS();
    }
    if (retry_delay < 0 || retry_delay > 60000) {
        zend_argument_value_error(2, "must be between 0 and 60000 (ms)");
        rl_object_construct_end(o);
        RETURN_THROWS();
    }
    if (retry_count < 0 || retry_count > 1000000) {
        zend_argument_value_error(3, "must be between 0 and 1000000");
        rl_object_construct_end(o);
        RETURN_THROWS();
    }
    o->redlock = true;
    o->retry_delay_ms = retry_delay;
    o->retry_count = retry_count;
    ZVAL_ARR(&list, servers);
    if (rl_settings_parse(&s, options, 4, true) == SUCCESS && !EG(exception)) {
        rl_object_setup(o, &s, &list, n, 1, true);
    }
    rl_settings_free(&s);
    rl_object_construct_end(o);
}

RL_METHOD_REPORTS(RedLock, lock)
{
    zend_string *resource, *owner = NULL;
    zend_long ttl;
    double wait = -1.0;
    bool wait_null = true;
    rl_kind kind = {.mode = RL_MODE_EXCLUSIVE};
    rl_object *o;
    rl_retry w;

    ZEND_PARSE_PARAMETERS_START(2, 4)
        Z_PARAM_STR(resource)
        Z_PARAM_LONG(ttl)
        Z_PARAM_OPTIONAL
        Z_PARAM_DOUBLE_OR_NULL(wait, wait_null)
        Z_PARAM_STR_OR_NULL(owner)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS)) || !rl_check_owner(owner, 4)) {
        RETURN_THROWS();
    }
    kind.owner = owner;
    if (!wait_null && !(wait >= 0.0 && wait <= 86400.0)) {
        zend_argument_value_error(3, "must be null or between 0 and 86400 seconds");
        RETURN_THROWS();
    }
    if (!wait_null) { /* a wait: woken at release, as RedisLock */
        rl_method_lock(o, resource, &kind, ttl, wait, NULL, return_value);
        return;
    }
    /* No wait given: retryCount tries in all, a random [retryDelay/2, retryDelay]
     * ms apart, as the Redlock libraries do. */
    rl_retry_start(&w, o->retry_count, o->retry_delay_ms * 500, o->retry_delay_ms * 1000);
    rl_method_lock(o, resource, &kind, ttl, 0.0, &w, return_value);
}

/* Its PHP_METHOD of each method both classes share (rl_method_list.h). */
#define RL_REDLOCK_METHOD(name, body)           \
    RL_METHOD_REPORTS(RedLock, name)            \
    {                                           \
        body(INTERNAL_FUNCTION_PARAM_PASSTHRU); \
    }
RL_SHARED_METHODS(RL_REDLOCK_METHOD)
