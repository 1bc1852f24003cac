/* Acquire, release and extend for both classes: a quorum of the object's
 * nodes decides (one node is a quorum of one). Each returns 1 (yes), 0 (no)
 * or -1 with an exception thrown. */
#ifndef RL_OBJECT_LOCK_H
#define RL_OBJECT_LOCK_H
#include "rl_object.h"
#include "src/lock/rl_node_set.h"
#include "src/lock/rl_wait.h"

/* What an acquire asks for: a lock, a shared lock, or a permit of a
 * semaphore of `limit` permits; and the token, when the caller names it. */
typedef struct rl_kind {
    int mode;           /* rl_mode */
    zend_long limit;    /* RL_MODE_PERMIT */
    zend_string *owner; /* the caller's token (lock()'s $token), or NULL: a fresh random one */
    bool guard;         /* once(): waiters end when the holder releases as done
                           (rl_lock_release_done), without the lock */
    bool refuse_own;    /* lock() on an object with option refresh_own false: a
                           lock the owner's token holds already is held (SET NX) */
} rl_kind;

extern const rl_kind rl_kind_exclusive;

/* One try at key for ttl_ms. Re-entrant: a key this object holds is
 * refreshed and counted, and its token returned again (an exclusive hold
 * serves a shared request too; other kinds mixed are an RL_E_KIND error). */
int rl_lock_try(rl_object *o, zend_string *key, const rl_kind *kind, zend_long ttl_ms, zend_string **token_out,
                bool first);

/* Tries until deadline_us (monotonic): after a failed try the waiter queues
 * on the nodes and blocks until a release wakes it, or until the holder's
 * TTL runs out; it leaves the queue when done. A guard's wait (kind->guard)
 * also ends, returning 2 without the lock, when the holder releases as done;
 * it queues at once (no first try by SET NX) unless this object holds key;
 * *result_out (when not NULL) then gets the holder's result, when its
 * release handed one (rl_lock_release_done), else stays NULL. */
int rl_lock_wait(rl_object *o, zend_string *key, const rl_kind *kind, zend_long ttl_ms, int64_t deadline_us,
                 zend_string **token_out, zend_string **result_out);

/* Releases key if it holds token; a re-entrant hold only counts down. */
int rl_lock_release(rl_object *o, zend_string *key, zend_string *token);

/* The same, the holder's work done: every waiter is woken as done (a
 * guard's waiters return; others look again), not the next one to take
 * over; result (NULL: none; at most RL_ONCE_VALUE_MAX bytes) is handed to
 * the guard's waiters with their wake. */
int rl_lock_release_done(rl_object *o, zend_string *key, zend_string *token, zend_string *result);

/* Sets key's TTL to ttl_ms where it holds token. */
int rl_lock_extend(rl_object *o, zend_string *key, zend_string *token, zend_long ttl_ms);

/* The fence number (option "fencing") of a lock this object holds on key
 * with validity left, else 0. */
zend_long rl_lock_fence(rl_object *o, zend_string *key);

/* Does token hold key now (a quorum says so)? 1, 0, or -1 thrown. */
int rl_lock_holds(rl_object *o, zend_string *key, zend_string *token); /* token NULL: anyone */

/* Releases key whoever holds it (all holders of a shared lock or a
 * semaphore) and wakes the next waiter; 1 when a quorum held it. */
int rl_lock_force(rl_object *o, zend_string *key);

/* ms of validity left of a lock this object holds on key, else 0. */
zend_long rl_lock_validity(rl_object *o, zend_string *key);

/* The pieces the other acquire files (rl_method_many.c) share with these. */

/* The protocol's node set over o's nodes. */
void rl_lock_nodes_of(rl_object *o, rl_lock_nodes *ns);

/* Throws for a failure of the protocol itself (no memory, no random
 * bytes) unless an exception says it already; -1. */
int rl_lock_fail_status(int status);

/* Logs event (key's) with the votes, and a token hint when token is set. */
void rl_lock_log_votes(rl_object *o, const rl_tally *t, int64_t start_us, const char *level, const char *event,
                       zend_string *key, const char *token);

/* Fewer than a quorum could answer: counted, logged, thrown naming the
 * nodes; -1. */
int rl_lock_fail_no_quorum(rl_object *o, const rl_tally *t, zend_string *key, int64_t start_us);

/* auto_extend: hands h (won by op, a LOCK of one key) to the watchdog on
 * the nodes of t; false with an exception when it cannot take it. */
bool rl_lock_watch(rl_object *o, const rl_tally *t, const rl_lock_op *op, rl_held *h);

#endif
