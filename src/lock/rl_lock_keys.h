/* The keys of one lock besides the lock key (rl_scripts.c, rl_key_derived()):
 * its queue, reservation, fence counter, shared holders and wake streams
 * (one per bucket of waiters), in the order of their roles (rl_key_role):
 * a role's key is buf[RL_KEY_SLOT(role)]. Short keys are built on the stack. */
#ifndef RL_LOCK_KEYS_H
#define RL_LOCK_KEYS_H
#include <stddef.h>
#include "rl_scripts.h"

/* Waiters are spread over this many wake streams of a lock (by the last
 * hex digit of their id): a release wakes the blocked readers of one
 * stream, not every waiter (rl_scripts.c). */
#define RL_WAKE_BUCKETS 16

/* The wake stream (0 .. RL_WAKE_BUCKETS - 1) of a waiter id; the scripts
 * compute the same in Lua. */
int rl_wake_bucket(const char *waiter, size_t len);

#define RL_KEY_SLOT(role) ((role)-RL_KEY_QUEUE) /* RL_KEY_WAKE's: the first wake stream */
#define RL_LOCK_NKEYS (RL_KEY_SLOT(RL_KEY_WAKE) + RL_WAKE_BUCKETS)

typedef struct rl_lock_keys {
    char stack[RL_LOCK_NKEYS][128];
    char *buf[RL_LOCK_NKEYS];
    size_t len[RL_LOCK_NKEYS];
} rl_lock_keys;

/* Derives key's keys into k. 0 or RL_E_NOMEM (nothing to free then). */
int rl_lock_keys_make(rl_lock_keys *k, const char *key, size_t key_len);

void rl_lock_keys_free(rl_lock_keys *k);

/* The wake stream key of waiter among k's (its bucket's). */
#define RL_OWN_WAKE(k, waiter, len) (RL_KEY_SLOT(RL_KEY_WAKE) + rl_wake_bucket((waiter), (len)))

#endif
