/* The node set a lock operation runs on, as the lock protocol sees it
 * (rl_acquire.c, rl_wait.c, rl_hold.c): how many nodes and their quorum,
 * how to run a command on every node (routing, redirects and failover are
 * the implementation's: ext/rl_object_lock.c adapts a PHP object's nodes), the
 * wait connections, and the clock. The unit tests give a scripted set.
 * Also here: the votes of one operation (rl_tally), the validity decision
 * of an acquire or extend, and the compare-and-delete on the nodes a
 * tally picks. */
#ifndef RL_NODES_H
#define RL_NODES_H
#include <stddef.h>
#include <stdint.h>
#include "rl_op.h"
#include "rl_quorum.h"

typedef struct rl_lock_nodes {
    size_t n, quorum;
    /* Runs op on every node; votes[] has n entries, each getting the
     * connection its command went to. need and early as rl_fanout(). */
    size_t (*run)(void *ctx, const rl_lock_op *op, rl_vote *votes, size_t need, int early);
    /* Node i's wait connection (a second connection per node) where key
     * lives (a Cluster's master of its slot), NULL when out of memory. */
    rl_conn *(*wait_conn)(void *ctx, size_t i, const char *key, size_t key_len);
    /* A blocking read (a wake wait) on every node's wait connection where
     * op->key lives, until one node answers yes or t ends; redirections
     * are followed as run's are. Each vote gets the connection its read
     * went to. Returns the number of yes votes. */
    size_t (*wait)(void *ctx, const rl_lock_op *op, rl_vote *votes, const rl_timeouts *t);
    void *ctx;
    /* Runs op on the connections in votes[0..n): rl_fanout(). An undo and a
     * fencing write-back go to the connections a tally's votes name (a
     * Cluster's ASK target is not the node's usual one), not through run. */
    size_t (*fanout)(const rl_lock_op *op, rl_vote *votes, size_t n, size_t need, int early, const rl_timeouts *t);
    /* The clock: rl_now_us and rl_sleep_until_us (a test's is a fake). */
    int64_t (*now_us)(void);
    void (*sleep_until_us)(int64_t until_us);
    rl_timeouts timeouts;
    double drift_factor;
    int redlock; /* validity with drift applies to every acquire and extend */
    int fencing; /* acquisitions are numbered (a won lock's votes carry the number) */
} rl_lock_nodes;

/* Up to this many nodes, a tally's votes are in the tally itself. */
#define RL_STACK_VOTES 8

/* The votes of one operation on every node, and what they add up to;
 * spare is as many votes again, for a command sent to some of the nodes
 * (an undo, a write-back), allocated with the rest so that it cannot fail
 * once the operation has begun. */
typedef struct rl_tally {
    rl_vote stack[2 * RL_STACK_VOTES];
    rl_vote *votes, *spare;
    size_t n, quorum; /* the node set's */
    rl_count count;
} rl_tally;

/* For the nodes of ns: 0, or RL_E_NOMEM (nothing to free then). */
int rl_tally_init(rl_tally *t, const rl_lock_nodes *ns);
void rl_tally_free(rl_tally *t);

/* Runs op on every node into t and counts the votes. need is the quorum
 * also when every node is waited for: a node benched after a timeout is
 * asked only if the quorum cannot be had without it. */
void rl_tally_run(const rl_lock_nodes *ns, rl_tally *t, const rl_lock_op *op, int early);

/* The outcome of an acquire or extend of ttl_ms begun at start_us, and in
 * *until_us when it stops being trusted. RedLock's drift allowance and
 * validity check apply to RedLock. RedisLock's single node has no drift,
 * but a fresh grant (a new token) whose reply came after its TTL ran out
 * (a server or this process stopped meanwhile) may already be someone
 * else's lock: it is lost (and taken back by the attempt). A late reply
 * for a token already held (an extend, a re-entrant refresh, a demotion)
 * is won with its validity over: the command took effect and the hold
 * stays, reported honestly (no validity, no fencing number) until extended. */
rl_outcome rl_tally_decide(const rl_lock_nodes *ns, const rl_tally *t, int64_t start_us, long long ttl_ms, int fresh,
                           int64_t *until_us);

/* Deletes like's token (a compare-and-delete) on the nodes of t that pick
 * chooses, at the connections their votes went to, waiting for each;
 * errors are not reported: the caller reports the operation. Uses
 * t->spare. Returns how many nodes were asked. */
size_t rl_release_where(const rl_lock_nodes *ns, rl_tally *t, const rl_lock_op *like, int (*pick)(const rl_vote *));

#endif
