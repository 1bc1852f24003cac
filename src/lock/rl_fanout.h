/* One operation on N nodes at once: every command is written before any
 * reply is read, and the replies are read in one poll() loop with a
 * deadline per node. A single node is a quorum of one. */
#ifndef RL_FANOUT_H
#define RL_FANOUT_H
#include <stddef.h>
#include <stdint.h>
#include "../transport/rl_conn.h"
#include "rl_lockops.h"
#include "../base/rl_error.h"

typedef struct rl_timeouts {
    int64_t connect_us;  /* to open a connection */
    int64_t reply_us;    /* to wait for a node that owes a reply */
    int64_t stop_at_us;  /* 0, or a monotonic time to stop listening at: nodes
                            not heard from by then are left, not failed */
} rl_timeouts;

/* What one node said. */
typedef struct rl_vote {
    rl_conn *conn;        /* in: the node's connection (pooled or private) */
    rl_error err;         /* out: code RL_OK when the node answered, else an rl_status
                             and what went wrong (without the node's name) in msg */
    int yes;              /* out: the node voted yes (err.code RL_OK) */
    long long value;      /* out: an integer reply's value (err.code RL_OK) */
    int sent;             /* out: the command went out (it may have run) */
    int one_key;          /* out: a Cluster release made on the lock key alone
                             (set by the caller that made it: nobody woken) */
    /* private to the fan-out */
    int phase, handshake_left, handshake_judged, reused, retried, form;
    int ack_owed;         /* a WAIT follows the command on the wire */
    int ack_next;         /* the command was judged: the next reply is WAIT's */
    int cmd_yes;          /* what the command said, while WAIT's reply is awaited */
    int64_t connect_deadline_us;
} rl_vote;

/* Sets *vote to a failure of the node at c that was not asked. */
void rl_vote_failed(rl_vote *vote, rl_conn *c, const rl_error *err);

/* Makes a vote that was asked a failure: err, no yes; the rest (where it
 * was sent, that it went out) stands. */
void rl_vote_set_error(rl_vote *vote, const rl_error *err);

/* Runs op on every node in votes[0..n). With early set it returns as soon
 * as `need` nodes voted yes or that can no longer happen; the nodes not
 * heard from then have err.code RL_E_SKIPPED and their connections keep the
 * owed reply to be read and dropped before their next command. Returns
 * the number of yes votes. */
size_t rl_fanout(const rl_op *op, rl_vote *votes, size_t n, size_t need, int early,
                 const rl_timeouts *t);

#endif
