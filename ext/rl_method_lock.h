/* Argument checks and the bodies of the lock methods the two classes share. */
#ifndef RL_METHOD_LOCK_H
#define RL_METHOD_LOCK_H
#include "rl_object.h"
#include "src/lock/rl_retry.h"
#include "rl_object_lock.h"

#define RL_MAX_TTL_MS ((zend_long)1 << 42) /* about 139 years: far from overflow in Redis */
#define RL_MAX_PERMITS 1000000             /* a semaphore's limit: each permit is a sorted-set entry */
#define RL_MAX_OWNER_LEN 256               /* a caller's token (a framework's owner string) */

/* v in 1..max, else a ValueError naming argument argnum. */
bool rl_check_positive(zend_long v, uint32_t argnum, zend_long max);

/* Non-empty token, else a ValueError naming argument argnum. */
bool rl_check_token(zend_string *token, uint32_t argnum);

/* A caller's token: NULL, or 1..RL_MAX_OWNER_LEN bytes without NUL (a NUL
 * starts the shared-lock mark) and not shaped as a token that names its
 * holder unless this process made it (rl_token_names_another()), else a
 * ValueError naming argument argnum. */
bool rl_check_owner(zend_string *owner, uint32_t argnum);

/* Releases key's lock of token with a pending exception set aside (the
 * release runs as if nothing were thrown, its logger called); an exception
 * of the release then carries the pending one as its previous, so nothing
 * is lost. */
void rl_release_beside_exception(rl_object *o, zend_string *key, zend_string *token);

/* wait in 0..86400 s, else a ValueError naming argument argnum. */
bool rl_check_wait(double wait, uint32_t argnum);

/* When a wait of `wait` seconds must end (monotonic): never after the
 * request's own max_execution_time. */
int64_t rl_wait_deadline(double wait);

/* lock(), lockShared(), acquirePermit(): with retries, tries per retries
 * (RedLock's retryCount); else waits up to wait seconds, woken at release.
 * Returns the token or null. */
void rl_method_lock(rl_object *o, zend_string *resource, const rl_kind *kind, zend_long ttl, double wait,
                    rl_retry *retries, zval *return_value);

/* RedisLock::lock($resource, $ttl, $wait = 0.0). */
void rl_method_lock_waiting(INTERNAL_FUNCTION_PARAMETERS);

/* once($resource, $rebuild, $ttl, $wait): what it returns (the classes'
 * ONCE_* constants). */
#define RL_ONCE_TIMED_OUT 0 /* not woken within $wait: nothing ran here */
#define RL_ONCE_RAN 1       /* $rebuild ran here, to its end */
#define RL_ONCE_WAITED 2    /* another caller's $rebuild ended while this one waited */

/* The bodies of the methods both classes share (lockShared(), unlock(),
 * extend(), synchronized(), once(), getValidity(), fencingToken(),
 * isHeld(), holds(), isLocked(), forceUnlock()) are declared by the list. */
#include "rl_method_list.h"

#endif
