/* One lock operation: the lock family's arguments of an engine op
 * (src/engine/rl_engine.h), its kind and what it is about. The lock family
 * (src/lock/rl_lockops.c) writes and judges them: LOCK, UNLOCK, EXTEND,
 * LOCK_WAIT, WAKE_WAIT, LEAVE, FENCE_RAISE, HOLDS, INSPECT, SCAN, WATCH,
 * LOCK_MANY, UNLOCK_MANY (src/lock/rl_manyops.c), DEADLOCK, DEADLOCK_DROP,
 * DEADLOCK_PART (src/lock/rl_deadlock.c). rl_lock_eop() makes the engine
 * op that carries one; rl_fanout() runs one on connections. */
#ifndef RL_OP_H
#define RL_OP_H
#include <stddef.h>
#include <stdint.h>
#include "../engine/rl_engine.h"

typedef enum rl_op_kind {
    RL_OP_LOCK,          /* SET key token NX PX ttl */
    RL_OP_UNLOCK,        /* delete key if it holds token, wake the next waiter (Lua) */
    RL_OP_EXTEND,        /* set key's TTL to ttl if it holds token (Lua) */
    RL_OP_LOCK_WAIT,     /* take key, or queue waiter and say the PTTL (Lua) */
    RL_OP_WAKE_WAIT,     /* XREAD the lock's wake stream from the waiter's cursor
                        on the connection (rl_lock_state.h), for wait_ms: yes
                        when a release names the waiter; the last entry's
                        id moves the cursor on */
    RL_OP_LEAVE,         /* take waiter out of key's queue (Lua) */
    RL_OP_FENCE_RAISE,   /* raise key's fence counter to op->fence (Lua) */
    RL_OP_HOLDS,         /* yes when token holds key now, of any kind (Lua) */
    RL_OP_INSPECT,       /* what an operator sees of key (Lua, read-only): a yes
                           with "KIND HOLDERS PTTL WAITERS FENCE" in its
                           result's text, each
                           live holder's token (16 at most) told to on_key */
    RL_OP_SCAN,          /* SCAN cursor MATCH match, in a script that bounds its
                           reply (rl_survey.h): a yes with "CURSOR [AFTER]" in
                           its result's text, each lock's name found told to on_key (key
                           routes it: a Cluster scans the master of key's slot) */
    RL_OP_WATCH,         /* XREAD key's every wake stream from now for wait_ms:
                           yes when a release wrote a wake (a waiter woken) */
    RL_OP_LOCK_MANY,     /* take keys[0..nkeys) all or none (Lua); with waiter and
                           enqueue, queue it at the first one held: a no's
                           value is the PTTL, and its result's text "INDEX ID
                           HOLDER": the key it waits for, its wake stream's
                           last entry and the holder */
    RL_OP_UNLOCK_MANY,   /* release each of keys[] that holds token, waking its
                           next waiter (Lua): a yes when one was (value: how many) */
    RL_OP_DEADLOCK,      /* key: the wait-for edges; waiter (a party) waits for
                           waits_for, held by token, for wait_ms (Lua): a no
                           when the edge is recorded; a yes when it would close
                           a cycle, each (resource, token) on it told to on_key
                           (a long resource by reference: rl_deadlock.c) */
    RL_OP_DEADLOCK_DROP, /* HDEL key waiter: the party's edge, its wait over */
    RL_OP_DEADLOCK_PART, /* key: the wait-for edges; the part from part_from of
                           the resource (waits_for_len bytes) waiter's edge
                           names (Lua): a yes, the part told to on_key; a no
                           when the edge is gone or names another */
    RL_OP_WAKE           /* wake key's next live waiter unless key is held
                           (Lua): what a native release (rl_native.h) that
                           found waiters queued owes */
} rl_op_kind;

/* What an acquire takes (LOCK, LOCK_WAIT). */
typedef enum rl_mode {
    RL_MODE_EXCLUSIVE = 0, /* a lock: one holder */
    RL_MODE_SHARED,        /* a shared lock: any number of shared holders, never with an exclusive one */
    RL_MODE_PERMIT         /* a semaphore's permit: at most op->limit holders */
} rl_mode;

typedef struct rl_lock_op {
    rl_op_kind kind;
    const char *key;
    size_t key_len;
    const char *token;
    size_t token_len;
    long long ttl_ms;
    const char *waiter; /* LOCK_WAIT, WAKE_WAIT, LEAVE: the waiter's id */
    size_t waiter_len;
    long long wait_ms;            /* LOCK_WAIT: how long the waiter waits; WAKE_WAIT: block for */
    int enqueue;                  /* LOCK_WAIT: queue the waiter when the lock is held */
    int min_replicas;             /* LOCK, LOCK_WAIT, EXTEND: > 0 sends WAIT after the command */
    long long replica_timeout_ms; /* ... with this timeout (at least 1 ms: WAIT 0 blocks for ever) */
    int repeat;                   /* send in the form that is safe to repeat from the
                            start (a retry on a new master after a failover) */
    int asking;                   /* Cluster: send ASKING first (after an ASK redirection) */
    int by_slot;                  /* a Cluster's node (RL_ROUTE_SLOTS): LOCK_MANY by its script,
                            never MSETEX (Valkey 9.1 runs MSETEX on a node that does not
                            serve the keys' slot instead of answering MOVED) */
    int fencing;                  /* LOCK, LOCK_WAIT: count the acquisition on key's fence
                            counter; a yes vote's value is its number */
    long long fence;              /* FENCE_RAISE: the number to raise the counter to */
    int mode;                     /* LOCK, LOCK_WAIT: an rl_mode (a LOCK of another mode than
                            exclusive is that mode's script, not queueing);
                            EXTEND, HOLDS: RL_MODE_SHARED sends the shared holders'
                            key (else a shared lock answers no with value -1) */
    long long limit;              /* RL_MODE_PERMIT: the semaphore's limit */
    int force;                    /* UNLOCK: whoever holds it (token unused) */
    int plain;                    /* UNLOCK: the caller holds key as a lock (not shared,
                            not a permit) under token, taken without a wait:
                            the server's own compare-and-delete may do
                            (rl_native.h) */
    int one_key;                  /* UNLOCK: touch the lock key alone, wake nobody (a
                            Cluster slot under migration answers a script of
                            several keys TRYAGAIN); a shared lock's value is -1 */
    int refuse_own;               /* LOCK, LOCK_WAIT of a lock with a caller's token: a
                            lock that token holds already is held (not refreshed),
                            also in a retry's form (the token may be held
                            elsewhere: our own command that landed before the
                            connection was lost then lives to its TTL) */
    int promote;                  /* LOCK, LOCK_WAIT of a lock: a shared lock whose only
                            holder is token becomes token's lock (the acquire
                            script, with the shared holders' key) */
    int guard;                    /* LOCK_WAIT, WAKE_WAIT: a stampede guard's waiter: a release
                            that ends the holder's work ("d") ends its wait */
    int done;                     /* UNLOCK: the holder's work is done: every waiter
                            is woken as done, not the next one to take over */
    const char *value;            /* UNLOCK with done: the holder's result, handed to the
                            waiters with their wake (NULL: none); at most
                            RL_ONCE_VALUE_MAX bytes */
    size_t value_len;
    int held;           /* LOCK, LOCK_WAIT with fencing: the caller holds this
                            lock already (re-entrant): a node where token is
                            found keeps its number; else it counts anew (the
                            token may be one a release never reached) */
    const char *cursor; /* SCAN: where the scan goes on ("0": from the start) */
    const char *match;  /* SCAN: the MATCH pattern (NUL-terminated) */
    const char *after;  /* SCAN: where in the cursor's page it goes on (the
                            AFTER a reply gave; NULL or "": its start) */
    const char *prefix; /* SCAN: the keys' prefix, name_at bytes: the script
                            sends each key without it (rl_key_listed() reads
                            the whole key: the judge puts it back) */
    size_t name_at;
    void (*on_key)(void *ctx, const char *key, size_t len); /* SCAN: each lock found, as
                            its resource name (rl_key_listed(), not a derived
                            key's), a long one cut (rl_survey.h); INSPECT:
                            each holder's token */
    void *on_key_ctx;
    const char *holder; /* LOCK_WAIT making fresh tokens: the holder's name each
                            one carries (rl_token_named; NULL: none) */
    size_t holder_len;
    const char *const *keys; /* LOCK_MANY, UNLOCK_MANY: the lock keys, all in one
                            slot on a Cluster (key is keys[0] there, for routing) */
    const size_t *key_lens;
    size_t nkeys;
    const char *waits_for; /* DEADLOCK: the resource's lock key */
    size_t waits_for_len;
    long long part_from;          /* DEADLOCK_PART: the part's first byte */
    struct rl_deadlock *deadlock; /* a wait's (rl_wait_run): its deadlock detection
                            (rl_deadlock.h); NULL: none */
} rl_lock_op;

/* The largest result a stampede guard's release hands to its waiters: it
 * goes in each wake entry, and a waiter's XREAD reads up to 64 entries
 * (rl_wait.c raises its wait connection's reply bound to match). */
#define RL_ONCE_VALUE_MAX 8192

/* The lock family: the engine's hooks for a lock op (rl_lockops.c). */
extern const rl_family rl_lock_family;

/* The engine op that carries op (its routing key, what topology may do
 * with it). op must outlive it. */
rl_op rl_lock_eop(const rl_lock_op *op);

/* Runs op on the connections in votes[0..n): rl_engine_run(). */
size_t rl_fanout(const rl_lock_op *op, rl_vote *votes, size_t n, size_t need, int early, const rl_timeouts *t);

/* Appends op to c's output buffer in the given form (the lock family's
 * writer, with what it sends first). 0 or RL_E_NOMEM. */
int rl_op_append(rl_conn *c, const rl_lock_op *op, rl_send_form form, int64_t now_us);

/* Reads a reply (redisReply *) to op (the lock family's judge, on no
 * connection); out->value gets an integer reply (the PTTL for LOCK_WAIT;
 * the acquisition's fence number for a yes to a LOCK or LOCK_WAIT with
 * fencing), out->text a text result (rl_lock_op_judge()): for WAKE_WAIT
 * the id of the last stream entry read (also with RL_REPLY_NO: entries
 * naming other waiters); err what went wrong. */
int rl_op_judge(const rl_lock_op *op, const void *reply, rl_result *out, char *err, size_t errlen);

#endif
