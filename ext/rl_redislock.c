/* class RedisLock: one node. */
#include "rl_redislock.h"
#include "rl_errors.h"
#include "rl_object.h"
#include "rl_wait.h"
#include "src/rl_status.h"
#include "src/rl_token.h"
#include "zend_exceptions.h"
#include <unistd.h>

zend_class_entry *rl_ce_redislock;
static zend_object_handlers handlers;

static zend_object *create(zend_class_entry *ce)
{
    return rl_object_create(ce, &handlers);
}

void rl_redislock_init(zend_class_entry *ce)
{
    rl_ce_redislock = ce;
    ce->create_object = create;
    memcpy(&handlers, zend_get_std_object_handlers(), sizeof handlers);
    handlers.offset = XtOffsetOf(rl_object, std);
    handlers.free_obj = rl_object_free;
    handlers.clone_obj = NULL;
}

/* The one node's vote: 1 yes, 0 no, -1 when an exception was thrown. */
static int vote(rl_object *o, const rl_op *op)
{
    rl_vote v;
    rl_object_run(o, op, &v, 1, 1);
    if (v.status != RL_OK) {
        rl_throw_node_error(&v);
        return -1;
    }
    return v.yes;
}

static int try_acquire(rl_object *o, zend_string *key, zend_long ttl_ms, zend_string **token_out)
{
    char token[RL_TOKEN_LEN + 1];
    rl_held *h = rl_held_find(o, key);
    rl_op op = {RL_OP_LOCK, ZSTR_VAL(key), ZSTR_LEN(key), token, RL_TOKEN_LEN, ttl_ms};
    int r;

    if (h != NULL && h->pid == getpid()) { /* re-entrant: refresh the TTL, count */
        rl_op ext = {RL_OP_EXTEND, ZSTR_VAL(key), ZSTR_LEN(key), ZSTR_VAL(h->token), ZSTR_LEN(h->token), ttl_ms};
        r = vote(o, &ext);
        if (r != 0) {
            if (r == 1) {
                h->count++;
                *token_out = zend_string_copy(h->token);
            }
            return r;
        }
        rl_held_remove(o, key); /* expired while held: no longer ours */
    }
    if (rl_token_new(token) != 0) {
        zend_throw_exception(rl_ce_exception, "cannot read random bytes for a token", 0);
        return -1;
    }
    r = vote(o, &op);
    if (r == 1) {
        *token_out = zend_string_init(token, RL_TOKEN_LEN, 0);
        rl_held_add(o, key, *token_out);
    }
    return r;
}

static int acquire(rl_object *o, zend_string *key, zend_long ttl_ms, double wait, zend_string **token_out)
{
    rl_wait w;
    int r;

    rl_wait_start(&w, wait);
    while ((r = try_acquire(o, key, ttl_ms, token_out)) == 0 && rl_wait_again(&w)) {
    }
    return r;
}

/* Releases key if held with token; 1 released, 0 not ours, -1 thrown. */
static int release(rl_object *o, zend_string *key, zend_string *token)
{
    rl_held *h = rl_held_find(o, key);
    rl_op op = {RL_OP_UNLOCK, ZSTR_VAL(key), ZSTR_LEN(key), ZSTR_VAL(token), ZSTR_LEN(token), 0};
    int r;

    if (h != NULL && zend_string_equals(h->token, token) && h->count > 1) {
        h->count--; /* re-entrant: the key goes at the last release */
        return 1;
    }
    r = vote(o, &op);
    if (r >= 0 && h != NULL && zend_string_equals(h->token, token)) {
        rl_held_remove(o, key);
    }
    return r;
}

static bool positive(zend_long v, uint32_t argnum, zend_long max)
{
    if (v <= 0 || v > max) {
        zend_argument_value_error(argnum, "must be between 1 and " ZEND_LONG_FMT, max);
        return false;
    }
    return true;
}

#define MAX_TTL_MS ((zend_long)1 << 42) /* about 139 years: far from overflow in Redis */

PHP_METHOD(RedisLock, __construct)
{
    zval *server = NULL;
    HashTable *options = NULL;
    rl_settings s;
    zval def;

    ZEND_PARSE_PARAMETERS_START(0, 2)
        Z_PARAM_OPTIONAL
        Z_PARAM_ZVAL(server)
        Z_PARAM_ARRAY_HT(options)
    ZEND_PARSE_PARAMETERS_END();

    if (rl_settings_parse(&s, options, 2, false) == SUCCESS) {
        if (server == NULL) {
            ZVAL_STRINGL(&def, "127.0.0.1:6379", 14);
            server = &def;
        } else {
            ZVAL_UNDEF(&def);
        }
        rl_object_setup(Z_RL_OBJ_P(ZEND_THIS), &s, server, 1, 1, false);
        zval_ptr_dtor(&def);
    }
    rl_settings_free(&s);
}

PHP_METHOD(RedisLock, acquireLock)
{
    zend_string *resource, *key, *token = NULL;
    zend_long timeout = 10;
    int r;

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_STR(resource)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(timeout)
    ZEND_PARSE_PARAMETERS_END();

    if (!positive(timeout, 2, MAX_TTL_MS / 1000) || !(key = rl_object_key(Z_RL_OBJ_P(ZEND_THIS), resource, 1))) {
        RETURN_THROWS();
    }
    r = acquire(Z_RL_OBJ_P(ZEND_THIS), key, timeout * 1000, 0.0, &token);
    zend_string_release(key);
    if (token) {
        zend_string_release(token);
    }
    if (r < 0) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}

PHP_METHOD(RedisLock, releaseLock)
{
    zend_string *resource, *key;
    rl_object *o = Z_RL_OBJ_P(ZEND_THIS);
    rl_held *h;
    int r = 0;

    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_STR(resource)
    ZEND_PARSE_PARAMETERS_END();

    if (!(key = rl_object_key(o, resource, 1))) {
        RETURN_THROWS();
    }
    h = rl_held_find(o, key);
    if (h != NULL) {
        zend_string *token = zend_string_copy(h->token);
        r = release(o, key, token);
        zend_string_release(token);
    }
    zend_string_release(key);
    if (r < 0) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}

PHP_METHOD(RedisLock, lock)
{
    zend_string *resource, *key, *token = NULL;
    zend_long ttl;
    double wait = 0.0;
    int r;

    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_STR(resource)
        Z_PARAM_LONG(ttl)
        Z_PARAM_OPTIONAL
        Z_PARAM_DOUBLE(wait)
    ZEND_PARSE_PARAMETERS_END();

    if (!positive(ttl, 2, MAX_TTL_MS)) {
        RETURN_THROWS();
    }
    if (!(wait >= 0.0 && wait <= 86400.0)) {
        zend_argument_value_error(3, "must be between 0 and 86400 seconds");
        RETURN_THROWS();
    }
    if (!(key = rl_object_key(Z_RL_OBJ_P(ZEND_THIS), resource, 1))) {
        RETURN_THROWS();
    }
    r = acquire(Z_RL_OBJ_P(ZEND_THIS), key, ttl, wait, &token);
    zend_string_release(key);
    if (r < 0) {
        RETURN_THROWS();
    }
    if (token == NULL) {
        RETURN_NULL();
    }
    RETURN_STR(token);
}

static bool token_ok(zend_string *token, uint32_t argnum)
{
    if (ZSTR_LEN(token) == 0) {
        zend_argument_value_error(argnum, "must not be empty");
        return false;
    }
    return true;
}

PHP_METHOD(RedisLock, unlock)
{
    zend_string *resource, *token, *key;
    int r;

    ZEND_PARSE_PARAMETERS_START(2, 2)
        Z_PARAM_STR(resource)
        Z_PARAM_STR(token)
    ZEND_PARSE_PARAMETERS_END();

    if (!token_ok(token, 2) || !(key = rl_object_key(Z_RL_OBJ_P(ZEND_THIS), resource, 1))) {
        RETURN_THROWS();
    }
    r = release(Z_RL_OBJ_P(ZEND_THIS), key, token);
    zend_string_release(key);
    if (r < 0) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}

PHP_METHOD(RedisLock, extend)
{
    zend_string *resource, *token, *key;
    zend_long ttl;
    int r;

    ZEND_PARSE_PARAMETERS_START(3, 3)
        Z_PARAM_STR(resource)
        Z_PARAM_STR(token)
        Z_PARAM_LONG(ttl)
    ZEND_PARSE_PARAMETERS_END();

    if (!token_ok(token, 2) || !positive(ttl, 3, MAX_TTL_MS)
        || !(key = rl_object_key(Z_RL_OBJ_P(ZEND_THIS), resource, 1))) {
        RETURN_THROWS();
    }
    {
        rl_op op = {RL_OP_EXTEND, ZSTR_VAL(key), ZSTR_LEN(key), ZSTR_VAL(token), ZSTR_LEN(token), ttl};
        r = vote(Z_RL_OBJ_P(ZEND_THIS), &op);
    }
    zend_string_release(key);
    if (r < 0) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}
