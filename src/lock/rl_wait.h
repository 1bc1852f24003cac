/* Waiting for a lock: attempts queued on the nodes, and between them a
 * block on the waiter's wake streams until a release wakes it, the
 * holder's TTL ends or a recheck is due; the queue is left at the end.
 * What each attempt means to the caller (a won lock recorded, counters,
 * logs, exceptions) is the caller's, told through rl_wait_hooks.
 *
 * What leaks, and why: waiters are served in arrival order on one node, not
 * across a quorum. A RedLock waiter is queued only on the nodes that refused
 * it, so the queues' orders differ; a waiter told it is next, and holding
 * the reservation on those nodes, can lose to a caller the other nodes let
 * in, and wait until its recheck (RECHECK_MAX_US). A fairness gap, not a
 * safety one, measured by the safety suite (docs/design/safety.md,
 * "liveness"). And on any node a caller that never queued (its first, plain
 * SET NX PX) may take the lock in a woken waiter's 200 ms, which then
 * queues again at the back (docs/design/waiting.md). */
#ifndef RL_WAIT_H
#define RL_WAIT_H
#include "rl_acquire.h"

/* Longest a waiter sleeps without looking (a waiter looks again anyway
 * when the holder's TTL ends, and when a release names it next in line).
 * It bounds what a wake-up lost to a dead waiter costs when the waiter
 * after it died too; it is also how often a waiter asks Redis while a lock
 * is held long (it was 200 ms: 5 scripts a second per waiter, a poll). */
#define RECHECK_MAX_US 2000000

/* A waiter named next in line looks again this long after: the woken
 * waiter's reservation (200 ms) and a margin. If the woken one died, no
 * release will wake anyone: this look takes the lock. */
#define NEXT_IN_LINE_US 250000

/* How often a waiting promotion looks: it is never woken (a release wakes
 * nobody while a shared holder, itself, stays), so it looks again as
 * often as a waiter did before the next-in-line wake. */
#define PROMOTE_RECHECK_US 200000

/* rl_wait_run(): the wait would close a cycle (op->deadlock's cycle says which). */
#define RL_WAIT_DEADLOCK 3

typedef struct rl_wait_hooks {
    /* Before each attempt: is op's token this process's lock already
     * (rl_attempt_run()'s ours_before)? Asked each time: the caller's
     * held records are the caller's. */
    int (*ours_before)(void *ctx, const rl_lock_op *op);
    /* After each attempt: the caller records a won lock, counts and logs.
     * 1: won, the wait ends; -1: the caller stops it (its error); 0: wait on. */
    int (*attempted)(void *ctx, const rl_lock_op *op, const rl_attempt *a);
    void *ctx;
    /* A guard's waiter woken as done with the holder's result (the release's
     * op->value): value is malloc'd, the hook's to free. NULL: not wanted. */
    void (*result)(void *ctx, char *value, size_t len);
    /* A node's blocking read of key's wake stream failed (v: its vote,
     * the node's answer or error): told to the logger. 0, or -1 to stop the wait (the logger
     * threw). NULL: not told. */
    int (*wake_failed)(void *log_ctx, const char *key, size_t key_len, const rl_vote *v);
    void *log_ctx;
} rl_wait_hooks;

/* Counts of every wait of the process (all threads); the pool's metrics
 * count them too. */
typedef struct rl_wait_counts {
    unsigned long long woken;       /* blocking reads ended by a release's wake naming the waiter */
    unsigned long long rechecked;   /* ended by the recheck timer or the holder's TTL, not woken */
    unsigned long long wake_errors; /* a node's blocking read refused or failed (redirections followed):
                                       once per node and wait */
} rl_wait_counts;

void rl_wait_counts_get(rl_wait_counts *out);

/* Waits until deadline_us (monotonic) for like: an RL_OP_LOCK_WAIT with
 * its key, ttl_ms, mode, limit, fencing, promote and guard, and token the
 * owner's token or NULL (a fresh one per attempt); or an RL_OP_LOCK_MANY
 * with its keys (it waits at the first one held). like->deadlock: the
 * detection's state, or NULL. promoting: a waiting
 * promotion (its own shared lock to a lock), which looks every
 * PROMOTE_RECHECK_US. Returns 1 (won), 2 (a guard's waiter: the holder
 * released as done, the lock not taken; its result, when the wake carried
 * one, told to hooks->result first), RL_WAIT_DEADLOCK, 0 (the deadline passed), or -1:
 * the hooks stopped it (*status 0), or *status says what failed
 * (RL_E_NOMEM, RL_E_RANDOM). */
int rl_wait_run(const rl_lock_nodes *ns, const rl_lock_op *like, int64_t deadline_us, int promoting,
                const rl_wait_hooks *hooks, int *status);

#endif
