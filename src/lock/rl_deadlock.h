/* Deadlock detection for waiters (docs/api.md, "Deadlocks"). Each process
 * (a thread of a thread-safe PHP) is a party, named by the first
 * characters of every token it makes (rl_token_party()). A waiter that
 * queues behind a lock records an edge "my party waits for that resource,
 * held by that token" in a hash of its prefix, on every node, until its
 * wait ends; the script that records it first follows the edges from the
 * holder's party. When they lead back to the waiter, its wait would close
 * a cycle: it records nothing, checks that every lock on the cycle is
 * still held (an edge may lag behind its waiter by one look), and gets
 * the error; the others wait on, and go on once the error's caller lets
 * go of what it holds. No command is sent while nobody waits. */
#ifndef RL_DEADLOCK_H
#define RL_DEADLOCK_H
#include <stddef.h>
#include "rl_node_set.h"

/* A resource on a cycle longer than this comes by reference (its edge's
 * party and its length) and is read in parts of RL_DEADLOCK_PART bytes:
 * every reply stays within a lock reply's bounds (rl_reply_guard.h), a
 * cycle of 32 edges of RL_DEADLOCK_NAME_SENT-byte resources included. */
#define RL_DEADLOCK_NAME_SENT 1024
#define RL_DEADLOCK_PART 32768

/* The resources of a cycle kept for the error's message. */
#define RL_DEADLOCK_SHOWN 8
#define RL_DEADLOCK_KEY_SHOWN 128

typedef struct rl_deadlock {
    const char *edges_key; /* the prefix's wait-for edges (ext: the prefix, "\0waits") */
    size_t edges_key_len;
    int recorded; /* an edge of this wait may be on a node: dropped at its end */
    /* a confirmed cycle: the lock keys on it, the one waited for first
       (each cut at RL_DEADLOCK_KEY_SHOWN - 1 bytes), and how many there are */
    char cycle[RL_DEADLOCK_SHOWN][RL_DEADLOCK_KEY_SHOWN];
    size_t cycle_len[RL_DEADLOCK_SHOWN];
    size_t cycle_whole[RL_DEADLOCK_SHOWN]; /* each key's whole length (cut when longer than cycle_len) */
    size_t cycle_n;
} rl_deadlock;

/* A waiter queued behind key, held by holder (its token as the node told
 * it; another shape than ours, or none: nothing to trace), waits wait_ms
 * more: records its edge, or finds and confirms the cycle its wait would
 * close (a quorum of nodes finds it, and a quorum says each lock on it is
 * held). 1: a deadlock (d->cycle set), 0: not, or it could not tell. t's
 * votes are used. */
int rl_deadlock_check(const rl_lock_nodes *ns, rl_deadlock *d, rl_tally *t, const char *key, size_t key_len,
                      const char *holder, size_t holder_len, long long wait_ms);

/* The wait is over: its edge goes (sent, no reply waited for). */
void rl_deadlock_end(const rl_lock_nodes *ns, rl_deadlock *d, rl_tally *t);

/* The lock family's writer and judge of DEADLOCK, DEADLOCK_DROP and DEADLOCK_PART
 * (rl_lockops.c hands them here; errors are its). */
int rl_deadlock_op_append(rl_conn *c, const rl_lock_op *op, int eval, int64_t now_us);
int rl_deadlock_op_judge(const rl_lock_op *op, const void *reply, long long *value, char *err, size_t errlen);

#endif
