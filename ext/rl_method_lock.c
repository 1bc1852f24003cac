#include "rl_method_lock.h"
#include "rl_object_lock.h"
#include "rl_class_errors.h"
#include "src/base/rl_clock.h"
#include "src/base/rl_status.h"
#include "src/base/rl_pid.h"
#include "src/base/rl_token.h"
#include "src/lock/rl_op.h"
#include "SAPI.h"
#include <time.h>
#include <string.h>
#include "zend_exceptions.h"

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
    if (memchr(ZSTR_VAL(token), '\0', ZSTR_LEN(token)) != NULL) {
        /* no token holds one: the shared-lock mark starts with it */
        zend_argument_value_error(argnum, "must not contain NUL bytes");
        return false;
    }
    return true;
}

bool rl_check_wait(double wait, uint32_t argnum)
{
    if (!(wait >= 0.0 && wait <= 86400.0)) {
        zend_argument_value_error(argnum, "must be between 0 and 86400 seconds");
        return false;
    }
    return true;
}

/* When a wait of `wait` seconds must end: never after the request's own
 * max_execution_time (counted from the request start, on the wall clock:
 * PHP's timer counts CPU time, which a waiting process does not use). */
int64_t rl_wait_deadline(double wait)
{
    int64_t now = rl_now_us(), deadline = now + (int64_t)(wait * 1e6);
    if (EG(timeout_seconds) > 0) {
        struct timespec wall;
        double left;
        clock_gettime(CLOCK_REALTIME, &wall);
        left = sapi_get_request_time() + (double)EG(timeout_seconds) - ((double)wall.tv_sec + wall.tv_nsec / 1e9);
        int64_t limit = now + (int64_t)(left * 1e6);
        if (limit < deadline) {
            deadline = limit;
        }
    }
    return deadline;
}

/* 1 taken (token in *token_out), 0 not, -1 thrown. */
static int take(rl_object *o, zend_string *key, const rl_kind *kind, zend_long ttl, double wait, rl_retry *retries,
                zend_string **token_out)
{
    int r;
    if (retries == NULL) {
        return rl_lock_wait(o, key, kind, ttl, rl_wait_deadline(wait), token_out, NULL);
    }
    r = rl_lock_try(o, key, kind, ttl, token_out, true);
    while (r == 0 && !EG(exception) && rl_retry_again(retries)) {
        r = rl_lock_try(o, key, kind, ttl, token_out, false);
    }
    return EG(exception) && r == 0 ? -1 : r;
}

void rl_method_lock(rl_object *o, zend_string *resource, const rl_kind *kind, zend_long ttl, double wait,
                    rl_retry *retries, zval *return_value)
{
    zend_string *key, *token = NULL;
    int r;

    if (!(key = rl_object_key(o, resource, 1))) {
        RETURN_THROWS();
    }
    if (!rl_check_positive(ttl, kind->mode == RL_MODE_PERMIT ? 3 : 2, RL_MAX_TTL_MS)) {
        zend_string_release(key);
        RETURN_THROWS();
    }
    rl_kind k = *kind;
    k.refuse_own = !o->refresh_own && k.owner != NULL && k.mode == RL_MODE_EXCLUSIVE;
    r = take(o, key, &k, ttl, wait, retries, &token);
    zend_string_release(key);
    if (r < 0) {
        if (token) {
            zend_string_release(token); /* taken, but a logger threw: auto-release has it */
        }
        RETURN_THROWS();
    }
    if (token == NULL) {
        RETURN_NULL();
    }
    RETURN_STR(token);
}

/* PHP 8.6 has no zend_exception_save() any more: the pending exception is
 * set aside by hand. */
void rl_release_beside_exception(rl_object *o, zend_string *key, zend_string *token)
{
    zend_object *pending = EG(exception);
    EG(exception) = NULL;
    rl_lock_release(o, key, token);
    if (pending == NULL) {
        return;
    }
    if (zend_is_unwind_exit(pending)) {
        /* exit() in the callback: the request ends; an error of the release
         * cannot be thrown past it (nor chained to it: it is no Throwable) */
        if (EG(exception) != NULL) {
            zend_clear_exception();
        }
        EG(exception) = pending;
        return;
    }
    if (EG(exception) != NULL) {
        zend_exception_set_previous(EG(exception), pending);
    } else {
        EG(exception) = pending;
    }
}

/* synchronized()'s and once()'s arguments ($resource, $callback, $ttl =
 * 10000, $wait = 10.0; once()'s &$value), checked. */
typedef struct callback_args {
    rl_object *o;
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    zend_long ttl;
    double wait;
    zval *value; /* once()'s &$value, or NULL */
} callback_args;

/* The lock key, or NULL with an exception thrown. with_value: once()'s
 * fifth argument is allowed. */
static zend_string *parse_callback_args(INTERNAL_FUNCTION_PARAMETERS, callback_args *a, bool with_value)
{
    zend_string *resource, *key;

    a->ttl = 10000;
    a->wait = 10.0;
    a->value = NULL;
    ZEND_PARSE_PARAMETERS_START(2, with_value ? 5 : 4)
        Z_PARAM_STR(resource)
        Z_PARAM_FUNC(a->fci, a->fcc)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(a->ttl)
        Z_PARAM_DOUBLE(a->wait)
        Z_PARAM_ZVAL(a->value)
    ZEND_PARSE_PARAMETERS_END_EX(return NULL);
    (void)return_value;

    if (!(a->o = rl_object_ready(ZEND_THIS)) || !(key = rl_object_key(a->o, resource, 1))) {
        return NULL;
    }
    if (!rl_check_positive(a->ttl, 3, RL_MAX_TTL_MS) || !rl_check_wait(a->wait, 4)) {
        zend_string_release(key);
        return NULL;
    }
    return key;
}

/* Calls the callback with the token (for extend()); its result in retval. */
static void call_with_token(callback_args *a, zend_string *token, zval *retval)
{
    zval arg;
    ZVAL_STR_COPY(&arg, token);
    a->fci.retval = retval;
    a->fci.params = &arg;
    a->fci.param_count = 1;
    zend_call_function(&a->fci, &a->fcc);
    zval_ptr_dtor(&arg);
}

void rl_method_synchronized(INTERNAL_FUNCTION_PARAMETERS)
{
    zend_string *key, *token = NULL;
    callback_args a;
    int r;

    if (!(key = parse_callback_args(INTERNAL_FUNCTION_PARAM_PASSTHRU, &a, false))) {
        RETURN_THROWS();
    }
    r = take(a.o, key, &rl_kind_exclusive, a.ttl, a.wait, NULL, &token);
    if (r <= 0) {
        if (r == 0) {
            rl_throw_status(RL_E_NOT_ACQUIRED, "lock \"%s\" not acquired within %.3f s", ZSTR_VAL(key), a.wait);
        }
        if (token) {
            /* taken, but a logger threw: the callback will not run, so the
             * lock is not kept either */
            rl_release_beside_exception(a.o, key, token);
            zend_string_release(token);
        }
        zend_string_release(key);
        RETURN_THROWS();
    }
    call_with_token(&a, token, return_value); /* its result is ours */
    /* Release also when the callback threw; an error of the release then
     * carries the callback's exception as its previous, nothing is lost. */
    rl_release_beside_exception(a.o, key, token);
    zend_string_release(token);
    zend_string_release(key);
}

/* once()'s &$value gets v (copied; NULL: null) when the caller passed one. */
static void give_value(callback_args *a, zval *v)
{
    if (a->value == NULL) {
        return;
    }
    if (v == NULL || Z_TYPE_P(v) == IS_UNDEF) {
        ZEND_TRY_ASSIGN_REF_NULL(a->value);
    } else {
        ZEND_TRY_ASSIGN_REF_COPY(a->value, v);
    }
}

/* once($resource, $rebuild, $ttl, $wait, &$value): the stampede guard. The
 * first caller takes the lock and runs $rebuild($token); the callers that
 * come meanwhile queue, and its release as done (rl_lock_release_done)
 * wakes them all at once: they return without the lock, with what
 * $rebuild returned in $value when that was a string of at most
 * RL_ONCE_VALUE_MAX bytes (it travels with the wake). If $rebuild throws,
 * the plain release wakes one waiter, which takes the lock and runs its own
 * $rebuild (as after a fatal error, by auto-release; after a SIGKILL, the
 * first waiter to look when the TTL ends). */
void rl_method_once(INTERNAL_FUNCTION_PARAMETERS)
{
    zend_string *key, *token = NULL, *result = NULL;
    rl_kind guard = {.mode = RL_MODE_EXCLUSIVE, .guard = true};
    callback_args a;
    zval rebuilt, handed;
    int r;

    if (!(key = parse_callback_args(INTERNAL_FUNCTION_PARAM_PASSTHRU, &a, true))) {
        RETURN_THROWS();
    }
    rl_object *o = a.o;
    rl_held *h = rl_held_find(o, key);
    ZVAL_UNDEF(&rebuilt);
    if (h != NULL && h->pid == rl_pid() && !o->reentrant) {
        /* inside a once() of this object on key (or a lock it holds): the
         * work is this caller's already. A lock() here would wait for the
         * object itself with reentrant off. */
        zend_string_release(key);
        call_with_token(&a, h->token, &rebuilt);
        if (EG(exception)) {
            zval_ptr_dtor(&rebuilt);
            RETURN_THROWS();
        }
        give_value(&a, &rebuilt);
        zval_ptr_dtor(&rebuilt);
        RETURN_LONG(RL_ONCE_RAN);
    }
    r = rl_lock_wait(o, key, &guard, a.ttl, rl_wait_deadline(a.wait), &token, &result);
    if (r != 1) {
        if (r < 0 && token) {
            rl_release_beside_exception(o, key, token); /* taken, but a logger threw: not kept */
        }
        if (token) {
            zend_string_release(token);
        }
        zend_string_release(key);
        if (r < 0) {
            if (result) {
                zend_string_release(result);
            }
            RETURN_THROWS();
        }
        if (result != NULL) {
            ZVAL_STR(&handed, result); /* the reference takes it */
            give_value(&a, &handed);
            zval_ptr_dtor(&handed);
        } else {
            give_value(&a, NULL);
        }
        RETURN_LONG(r == 2 ? RL_ONCE_WAITED : RL_ONCE_TIMED_OUT);
    }
    call_with_token(&a, token, &rebuilt);
    if (EG(exception)) {
        rl_release_beside_exception(o, key, token); /* one waiter takes over */
    } else {
        /* every waiter goes, with the result when it is a string small enough */
        bool hand = Z_TYPE(rebuilt) == IS_STRING && Z_STRLEN(rebuilt) <= RL_ONCE_VALUE_MAX;
        rl_lock_release_done(o, key, token, hand ? Z_STR(rebuilt) : NULL);
    }
    zend_string_release(token);
    zend_string_release(key);
    if (EG(exception)) {
        zval_ptr_dtor(&rebuilt);
        RETURN_THROWS();
    }
    give_value(&a, &rebuilt);
    zval_ptr_dtor(&rebuilt);
    RETURN_LONG(RL_ONCE_RAN);
}

/* ($resource, $token) methods: act(o, key, token) gives 1 (true), 0
 * (false) or -1 (thrown). */
static void with_token(INTERNAL_FUNCTION_PARAMETERS, int (*act)(rl_object *, zend_string *, zend_string *))
{
    zend_string *resource, *token, *key;
    rl_object *o;
    int r;

    ZEND_PARSE_PARAMETERS_START(2, 2)
        Z_PARAM_STR(resource)
        Z_PARAM_STR(token)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS)) || !(key = rl_object_key(o, resource, 1))) {
        RETURN_THROWS();
    }
    if (!rl_check_token(token, 2)) {
        zend_string_release(key);
        RETURN_THROWS();
    }
    r = act(o, key, token);
    zend_string_release(key);
    if (r < 0) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}

void rl_method_unlock(INTERNAL_FUNCTION_PARAMETERS)
{
    with_token(INTERNAL_FUNCTION_PARAM_PASSTHRU, rl_lock_release);
}

void rl_method_extend(INTERNAL_FUNCTION_PARAMETERS)
{
    zend_string *resource, *token, *key;
    zend_long ttl;
    rl_object *o;
    int r;

    ZEND_PARSE_PARAMETERS_START(3, 3)
        Z_PARAM_STR(resource)
        Z_PARAM_STR(token)
        Z_PARAM_LONG(ttl)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS)) || !(key = rl_object_key(o, resource, 1))) {
        RETURN_THROWS();
    }
    if (!rl_check_token(token, 2) || !rl_check_positive(ttl, 3, RL_MAX_TTL_MS)) {
        zend_string_release(key);
        RETURN_THROWS();
    }
    r = rl_lock_extend(o, key, token, ttl);
    zend_string_release(key);
    if (r < 0) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}

/* The lock this object holds on the method's $resource: its key, or NULL
 * with an exception thrown. */
static zend_string *held_key(INTERNAL_FUNCTION_PARAMETERS, rl_object **o)
{
    zend_string *resource;
    (void)return_value; /* the caller sets it */

    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_STR(resource)
    ZEND_PARSE_PARAMETERS_END_EX(return NULL);

    if (!(*o = rl_object_ready(ZEND_THIS))) {
        return NULL;
    }
    return rl_object_key(*o, resource, 1);
}

void rl_method_validity(INTERNAL_FUNCTION_PARAMETERS)
{
    rl_object *o;
    zend_string *key = held_key(INTERNAL_FUNCTION_PARAM_PASSTHRU, &o);

    if (key == NULL) {
        RETURN_THROWS();
    }
    RETVAL_LONG(rl_lock_validity(o, key));
    zend_string_release(key);
}

void rl_method_is_held(INTERNAL_FUNCTION_PARAMETERS)
{
    rl_object *o;
    zend_string *key = held_key(INTERNAL_FUNCTION_PARAM_PASSTHRU, &o);

    if (key == NULL) {
        RETURN_THROWS();
    }
    RETVAL_BOOL(rl_lock_validity(o, key) > 0);
    zend_string_release(key);
}

void rl_method_fencing_token(INTERNAL_FUNCTION_PARAMETERS)
{
    rl_object *o;
    zend_string *key = held_key(INTERNAL_FUNCTION_PARAM_PASSTHRU, &o);
    zend_long fence;

    if (key == NULL) {
        RETURN_THROWS();
    }
    fence = rl_lock_fence(o, key);
    zend_string_release(key);
    if (fence <= 0) {
        RETURN_NULL();
    }
    RETURN_LONG(fence);
}

bool rl_check_owner(zend_string *owner, uint32_t argnum)
{
    if (owner == NULL) {
        return true;
    }
    if (ZSTR_LEN(owner) == 0 || ZSTR_LEN(owner) > RL_MAX_OWNER_LEN) {
        zend_argument_value_error(argnum, "must be null or between 1 and %d bytes", RL_MAX_OWNER_LEN);
        return false;
    }
    if (memchr(ZSTR_VAL(owner), '\0', ZSTR_LEN(owner)) != NULL) {
        zend_argument_value_error(argnum, "must not contain NUL bytes");
        return false;
    }
    if (rl_token_names_another(ZSTR_VAL(owner), ZSTR_LEN(owner))) {
        /* inspect() and redislock show would give its text as a holder's name */
        zend_argument_value_error(argnum,
                                  "must not look like a token that names its holder (32 hex characters, a space, "
                                  "a name) unless this process's lock() made it");
        return false;
    }
    return true;
}

/* $resource, $ttl, $wait = 0.0, $token = null: a lock of mode, waiting
 * up to $wait s. */
static void lock_waiting(INTERNAL_FUNCTION_PARAMETERS, int mode)
{
    zend_string *resource, *owner = NULL;
    zend_long ttl;
    double wait = 0.0;
    rl_kind kind = {.mode = mode};
    rl_object *o;

    ZEND_PARSE_PARAMETERS_START(2, 4)
        Z_PARAM_STR(resource)
        Z_PARAM_LONG(ttl)
        Z_PARAM_OPTIONAL
        Z_PARAM_DOUBLE(wait)
        Z_PARAM_STR_OR_NULL(owner)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS)) || !rl_check_wait(wait, 3) || !rl_check_owner(owner, 4)) {
        RETURN_THROWS();
    }
    kind.owner = owner;
    rl_method_lock(o, resource, &kind, ttl, wait, NULL, return_value);
}

void rl_method_lock_waiting(INTERNAL_FUNCTION_PARAMETERS)
{
    lock_waiting(INTERNAL_FUNCTION_PARAM_PASSTHRU, RL_MODE_EXCLUSIVE);
}

void rl_method_lock_shared(INTERNAL_FUNCTION_PARAMETERS)
{
    lock_waiting(INTERNAL_FUNCTION_PARAM_PASSTHRU, RL_MODE_SHARED);
}

void rl_method_holds(INTERNAL_FUNCTION_PARAMETERS)
{
    with_token(INTERNAL_FUNCTION_PARAM_PASSTHRU, rl_lock_holds);
}

void rl_method_is_locked(INTERNAL_FUNCTION_PARAMETERS)
{
    rl_object *o;
    zend_string *key = held_key(INTERNAL_FUNCTION_PARAM_PASSTHRU, &o);
    int r;

    if (key == NULL) {
        RETURN_THROWS();
    }
    r = rl_lock_holds(o, key, NULL);
    zend_string_release(key);
    if (r < 0) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}

void rl_method_force_unlock(INTERNAL_FUNCTION_PARAMETERS)
{
    rl_object *o;
    zend_string *key = held_key(INTERNAL_FUNCTION_PARAM_PASSTHRU, &o);
    int r;

    if (key == NULL) {
        RETURN_THROWS();
    }
    r = rl_lock_force(o, key);
    zend_string_release(key);
    if (r < 0) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}
