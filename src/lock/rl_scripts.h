/* The Lua scripts the lock commands run, and their SHA1s (computed once by
 * the host at start-up, so the text and the digest can never disagree). */
#ifndef RL_SCRIPTS_H
#define RL_SCRIPTS_H

typedef enum rl_script {
    RL_SCRIPT_RELEASE,      /* delete if ours; wake the next live waiter */
    RL_SCRIPT_EXTEND,       /* set the TTL if ours */
    RL_SCRIPT_ACQUIRE,      /* take if free or already ours (safe to repeat) */
    RL_SCRIPT_ACQUIRE_WAIT, /* take if free or ours, else queue a waiter and return the PTTL */
    RL_SCRIPT_LEAVE,        /* remove a waiter from the queue, and its reservation */
    RL_SCRIPT_ACQUIRE_SHARED, /* take a shared lock, or queue a waiter and return the PTTL */
    RL_SCRIPT_ACQUIRE_PERMIT, /* take a permit of a semaphore, or queue a waiter and return the PTTL */
    RL_SCRIPT_HOLDS,        /* does a token hold the resource now (any kind) */
    RL_SCRIPT_FENCE_RAISE,  /* raise a fence counter to a number, never lower it */
    RL_SCRIPT_RELEASE_ONE_KEY, /* delete if ours, touching the lock key alone (no wake) */
    RL_SCRIPT_COUNT
} rl_script;

/* The script's source text. */
const char *rl_script_source(rl_script s);

/* Stores the lowercase hex SHA1 of rl_script_source(s). */
void rl_script_set_sha(rl_script s, const char sha[41]);

/* The stored SHA1 ("" until set). */
const char *rl_script_sha(rl_script s);

#endif
