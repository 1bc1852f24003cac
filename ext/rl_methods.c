#include "rl_methods.h"
#include "rl_locking.h"

bool rl_check_positive(zend_long v, uint32_t argnum, zend_long max)
{
    if (v <= 0 || v > max) {
        zend_argument_value_error(argnum, "must be between 1 and " ZEND_LONG_FMT, max);
        return false;
    }
    return true;
}

bool rl_check_token(zend_string *token, uint32_t argnum)
{
    if (ZSTR_LEN(token) == 0) {
        zend_argument_value_error(argnum, "must not be empty");
        return false;
    }
    return true;
}

void rl_method_lock(rl_object *o, zend_string *resource, zend_long ttl, rl_wait *w, zval *return_value)
{
    zend_string *key, *token = NULL;
    int r;

    if (!rl_check_positive(ttl, 2, RL_MAX_TTL_MS) || !(key = rl_object_key(o, resource, 1))) {
        RETURN_THROWS();
    }
    while ((r = rl_lock_try(o, key, ttl, &token)) == 0 && rl_wait_again(w)) {
    }
    zend_string_release(key);
    if (r < 0) {
        RETURN_THROWS();
    }
    if (token == NULL) {
        RETURN_NULL();
    }
    RETURN_STR(token);
}

void rl_method_unlock(INTERNAL_FUNCTION_PARAMETERS)
{
    zend_string *resource, *token, *key;
    int r;

    ZEND_PARSE_PARAMETERS_START(2, 2)
        Z_PARAM_STR(resource)
        Z_PARAM_STR(token)
    ZEND_PARSE_PARAMETERS_END();

    if (!(key = rl_object_key(Z_RL_OBJ_P(ZEND_THIS), resource, 1))) {
        RETURN_THROWS();
    }
    if (!rl_check_token(token, 2)) {
        zend_string_release(key);
        RETURN_THROWS();
    }
    r = rl_lock_release(Z_RL_OBJ_P(ZEND_THIS), key, token);
    zend_string_release(key);
    if (r < 0) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}

void rl_method_extend(INTERNAL_FUNCTION_PARAMETERS)
{
    zend_string *resource, *token, *key;
    zend_long ttl;
    int r;

    ZEND_PARSE_PARAMETERS_START(3, 3)
        Z_PARAM_STR(resource)
        Z_PARAM_STR(token)
        Z_PARAM_LONG(ttl)
    ZEND_PARSE_PARAMETERS_END();

    if (!(key = rl_object_key(Z_RL_OBJ_P(ZEND_THIS), resource, 1))) {
        RETURN_THROWS();
    }
    if (!rl_check_token(token, 2) || !rl_check_positive(ttl, 3, RL_MAX_TTL_MS)) {
        zend_string_release(key);
        RETURN_THROWS();
    }
    r = rl_lock_extend(Z_RL_OBJ_P(ZEND_THIS), key, token, ttl);
    zend_string_release(key);
    if (r < 0) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}
