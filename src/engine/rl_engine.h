/* The engine: one operation on N nodes at once. Every command is written
 * before any reply is read, and the replies are read in one poll() loop
 * with a deadline per node; a node that timed out a moment ago is benched.
 * A single node is a quorum of one.
 *
 * The engine knows no operation. An op is a kind tag, a family and the
 * family's own arguments: the family (a const table of hooks) writes the
 * op, judges each reply into a vote, and says what a timeout or a reply
 * owed to an earlier call means for it. The engine moves connections
 * through connect, TLS, login, send and reply, and counts votes; it never
 * reads op->kind. The families: lock (src/lock/rl_lockops.c), topology
 * (src/topology/rl_topology_cmds.c).
 *
 * A vote's result is in its value and result fields; its error value says
 * only what went wrong. */
#ifndef RL_ENGINE_H
#define RL_ENGINE_H
#include <stddef.h>
#include <stdint.h>
#include "../transport/rl_conn.h"
#include "../base/rl_error.h"

typedef enum rl_send_form {
    RL_FORM_FIRST, /* SET NX PX, or EVALSHA */
    RL_FORM_EVAL,  /* EVAL after NOSCRIPT (it also caches the script again) */
    RL_FORM_RETRY, /* after a connection lost mid-command: a form that is
                       safe to repeat, so a lock we may already hold counts
                       as ours instead of as taken */
    RL_FORM_RETRY_EVAL
} rl_send_form;

/* Outcome of one reply to an op (a family's judge). */
#define RL_REPLY_YES 1
#define RL_REPLY_NO 0
#define RL_REPLY_NOSCRIPT 2 /* script cache empty: resend in an EVAL form */
#define RL_REPLY_ERROR 3    /* err holds the server's message */
#define RL_REPLY_NOAUTH 4   /* server wants AUTH: err holds its message */
#define RL_REPLY_INVALID \
    5                    /* a reply of the right type whose content is wrong
                                 (err says how): the node's error, but the stream
                                 is in step, so the connection is kept */
#define RL_REPLY_NOMEM 6 /* out of memory while judging */

typedef struct rl_timeouts {
    int64_t connect_us; /* to open a connection */
    int64_t reply_us;   /* to wait for a node that owes a reply */
    int64_t stop_at_us; /* 0, or a monotonic time to stop listening at: nodes
                            not heard from by then are left, not failed */
} rl_timeouts;

/* The largest text result of one reply (a host name, a cursor, a queue
 * entry's id and holder's token). */
#define RL_RESULT_MAX 320

/* What a reply said besides yes or no, as its family's judge read it. */
typedef struct rl_result {
    long long value;          /* an integer reply's value (a PTTL, a fence number, a port) */
    char text[RL_RESULT_MAX]; /* a text result ("" when none): what the family says */
} rl_result;

/* What one node said. */
typedef struct rl_vote {
    rl_conn *conn;   /* in: the node's connection (pooled or private) */
    rl_error err;    /* out: code RL_OK when the node answered, else an rl_status
                             and what went wrong (without the node's name) in msg */
    int yes;         /* out: the node voted yes (err.code RL_OK) */
    long long value; /* out: an integer reply's value (err.code RL_OK) */
    int sent;        /* out: the command went out (it may have run) */
    int one_key;     /* out: a Cluster release made on the lock key alone
                             (set by the caller that made it: nobody woken) */
    /* private to the engine */
    int phase, handshake_left, handshake_judged, reused, retried, form;
    int trail_owed; /* replies of the op's that follow its command's (a WAIT) */
    int trail_next; /* the command was judged: the next reply is a trailing one */
    int cmd_yes;    /* what the command said, while the trailing reply is awaited */
    int64_t connect_deadline_us;
    rl_result result; /* out: what the reply said (err.code RL_OK); after
                             the private fields, so that a vote's start is
                             cleared cheaply */
} rl_vote;

typedef struct rl_op rl_op;

/* A family of commands: a const table of hooks the engine calls for an op
 * of the family. args is the op's own arguments (the family's type). */
typedef struct rl_family {
    const char *name; /* "lock", "topology" */
    /* Appends op to c's output buffer in the given form, with whatever the
     * family sends before it (replies owed to nobody: rl_conn_owe_discards).
     * Returns how many replies of the op's follow its command's (0, or 1
     * for a WAIT for replicas, or a release's look at its waiters' queue): the
     * engine hands them to judge_trail. < 0:
     * out of memory. */
    int (*append)(rl_conn *c, const rl_op *op, rl_send_form form, int64_t now_us);
    /* Judges the command's reply (redisReply *): an RL_REPLY_* verdict; what
     * it says besides yes or no goes in *out, what went wrong in err. c is
     * the connection it came on (NULL: the reply judged alone): the family
     * may keep what it remembers about the connection and read what the
     * reply needs (the host it asked). */
    int (*judge)(const rl_op *op, rl_conn *c, const void *reply, rl_result *out, char *err, size_t errlen);
    /* Judges a trailing reply, the command having said yes: RL_REPLY_YES,
     * RL_REPLY_NO (the vote fails with RL_E_REPLICAS), or another verdict
     * (RL_E_REPLY). out holds what the command's reply said; the family may
     * add to it. NULL when append never owes one. */
    int (*judge_trail)(const rl_op *op, const void *reply, rl_result *out, char *err, size_t errlen);
    /* A node timed out after the op was sent (sent) or before: the family
     * takes back what the node may still do (c's connection is closed
     * next). Returns how long the node stays benched, given the engine's
     * usual window. NULL: the usual window. */
    int64_t (*on_timeout)(const rl_op *op, rl_conn *c, int sent, int64_t usual_us);
    /* A reply owed to an earlier call, read and dropped before op's: 1 when
     * it answers op after all (*out, yes), else 0. NULL: dropped. */
    int (*on_stale_reply)(const rl_op *op, rl_conn *c, const void *reply, rl_result *out);
    /* After the run, every vote final: what the family keeps of them. NULL:
     * nothing. */
    void (*after_run)(const rl_op *op, rl_vote *votes, size_t n);
} rl_family;

/* What topology may do with an op when its node fails over or a Cluster
 * redirects it (rl_op.flags). */
#define RL_ROUTE_STAYS \
    1 /* stays on the master it went to (a waiter's own
                           queue entries are there): no failover followed */
#define RL_ROUTE_NARROWS \
    2 /* may be narrowed to its routing key alone while
                           the key's slot migrates (a release) */
#define RL_ROUTE_SLOTS \
    4 /* set by topology: the node routes by slot (a
                           Cluster), so a command must be one the server
                           redirects when it does not serve the keys' slot */

struct rl_op {
    int kind; /* the family's tag: the engine never reads it */
    const rl_family *family;
    const void *args; /* the family's arguments */
    const char *key;  /* routes it (a Cluster: the master of its slot) */
    size_t key_len;
    unsigned flags; /* RL_ROUTE_STAYS, RL_ROUTE_NARROWS, RL_ROUTE_SLOTS */
    /* Set by whoever sends it again (topology after a failover or a
     * redirection), read by the family's append and judge. */
    int repeat;         /* send in the form that is safe to repeat */
    int narrow;         /* narrowed to key alone (RL_ROUTE_NARROWS) */
    long long block_ms; /* > 0: a blocking read blocks at most this long */
    /* Appends commands sent before the op whose replies nobody waits for
     * (a Cluster's ASKING); returns how many, < 0 when out of memory. */
    int (*prefix)(rl_conn *c, int64_t now_us);
};

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
size_t rl_engine_run(const rl_op *op, rl_vote *votes, size_t n, size_t need, int early, const rl_timeouts *t);

/* Judges a reply to op alone (no connection): its family's judge. */
int rl_op_judge_alone(const rl_op *op, const void *reply, rl_result *out, char *err, size_t errlen);

#endif
