/* The Lua scripts the lock commands run, and their SHA1s (computed once by
 * the host at start-up, so the text and the digest can never disagree). */
#ifndef RL_SCRIPTS_H
#define RL_SCRIPTS_H
#include <stddef.h>

typedef enum rl_script {
    RL_SCRIPT_RELEASE,         /* delete if ours; wake the next live waiter */
    RL_SCRIPT_EXTEND,          /* set the TTL if ours */
    RL_SCRIPT_ACQUIRE,         /* take if free or already ours (safe to repeat) */
    RL_SCRIPT_ACQUIRE_WAIT,    /* take if free or ours, else queue a waiter and return the PTTL */
    RL_SCRIPT_LEAVE,           /* remove a waiter from the queue, and its reservation */
    RL_SCRIPT_ACQUIRE_SHARED,  /* take a shared lock, or queue a waiter and return the PTTL */
    RL_SCRIPT_ACQUIRE_PERMIT,  /* take a permit of a semaphore, or queue a waiter and return the PTTL */
    RL_SCRIPT_HOLDS,           /* does a token hold the resource now (any kind) */
    RL_SCRIPT_FENCE_RAISE,     /* raise a fence counter to a number, never lower it */
    RL_SCRIPT_RELEASE_ONE_KEY, /* delete if ours, touching the lock key alone (no wake) */
    RL_SCRIPT_INSPECT,         /* what an operator sees of a resource (read-only) */
    RL_SCRIPT_ACQUIRE_MANY,    /* take every resource or none, else queue a waiter at the first held */
    RL_SCRIPT_RELEASE_MANY,    /* release each resource the token holds, waking its next waiter */
    RL_SCRIPT_DEADLOCK,        /* record a waiter's wait-for edge, or find the cycle it would close */
    RL_SCRIPT_DEADLOCK_PART,   /* a part of a long resource a wait-for edge names */
    RL_SCRIPT_SCAN,            /* one page of SCAN, its names cut and counted to fit a lock reply */
    RL_SCRIPT_WAKE,            /* wake the next live waiter of a free lock (after a native release) */
    RL_SCRIPT_COUNT
} rl_script;

/* What a script's KEYS[i] is (rl_scripts.c's comment has the key names). */
typedef enum rl_key_role {
    RL_KEY_LOCK,        /* the lock key itself (a semaphore's permits) */
    RL_KEY_QUEUE,       /* K\0q */
    RL_KEY_RESERVATION, /* K\0r */
    RL_KEY_FENCE,       /* K\0f */
    RL_KEY_SHARED,      /* K\0s */
    RL_KEY_WAKE,        /* K\0A .. K\0P, RL_WAKE_BUCKETS keys, always last */
    RL_KEY_OWN_WAKE     /* the one of them a waiter reads (its id's bucket) */
} rl_key_role;

/* A script's KEYS in order (its file's "--@keys" line): n roles, and a bit
 * per position the caller may leave out (only after the others). */
typedef struct rl_script_keys {
    unsigned char n;
    unsigned char role[6];
    unsigned char optional;
} rl_script_keys;

/* The KEYS of script s. */
const rl_script_keys *rl_script_keys_of(rl_script s);

/* The script's source text. */
const char *rl_script_source(rl_script s);

/* Stores the lowercase hex SHA1 of rl_script_source(s). */
void rl_script_set_sha(rl_script s, const char sha[41]);

/* The stored SHA1 ("" until set). */
const char *rl_script_sha(rl_script s);

/* Whether an error reply (len bytes, not NUL-terminated) refuses scripts
 * themselves rather than reporting a script's error: an ACL without
 * @scripting (NOPERM ... 'eval', 'evalsha', 'script'), or a server without
 * Lua (ERR unknown command 'EVAL...' or 'SCRIPT'). */
int rl_scripts_refused(const char *err, size_t len);

/* What a refusal of scripts is told as: the server's words, then what it
 * costs and what mends it. */
#define RL_SCRIPTS_REFUSED_HINT \
    " (the server refuses Lua scripts: give the user +@scripting, or load its Lua module; only lock() works without)"

#endif
