/* A scripted node set for the lock protocol's unit tests (a test double of
 * rl_lock_nodes, not of Redis): each command run on the nodes, through run
 * or fanout, takes the next scripted reply (one vote per node asked) and is
 * recorded with its op and the connections it went to. The clock is a
 * fake that only a reply or a sleep moves. */
#ifndef RL_FAKE_NODES_H
#define RL_FAKE_NODES_H
#include "../lock/rl_node_set.h"

#define FAKE_MAX_NODES 8
#define FAKE_MAX_CALLS 32

/* A reply's votes, one letter per node asked: 'y' yes, 'n' no, 'f' timed
 * out after the command went out, 'c' could not connect (nothing sent),
 * 's' skipped (sent, not waited for), 'e' an error reply, 'r' too few
 * replicas acknowledged (RL_E_REPLICAS), 'k' yes on the lock key alone
 * (a Cluster release during a slot migration). */
typedef struct fake_reply {
    const char *votes;
    long long value[FAKE_MAX_NODES]; /* each vote's value (a PTTL, a fence number, RL_WAKE_NEXT) */
    int64_t advance_us;              /* the clock moves this much while the command runs */
    int block;                       /* a wake wait: the clock moves on to its stop time */
} fake_reply;

typedef struct fake_call {
    rl_lock_op op; /* the op as given (its strings point at the caller's) */
    int fanout;    /* 1: sent by fanout to chosen connections, 0: run on every node */
    size_t n, need;
    int early;
    size_t node[FAKE_MAX_NODES]; /* which node each vote's connection is (wait connections: + 100) */
    int64_t at_us;               /* the fake clock when it was sent */
    rl_timeouts timeouts;        /* fanout's timeouts */
    char token[48], waiter[48];  /* copies of the op's (its pointers may be gone) */
} fake_call;

typedef struct fake_nodes {
    rl_lock_nodes ns;
    rl_conn conns[FAKE_MAX_NODES], wait_conns[FAKE_MAX_NODES];
    const fake_reply *script; /* the replies, in call order */
    size_t nscript, next;
    fake_call calls[FAKE_MAX_CALLS];
    size_t ncalls;
    int64_t slept_until[FAKE_MAX_CALLS];
    size_t nsleeps;
} fake_nodes;

/* n nodes (their quorum), the script of nscript replies, the clock at 1 s. */
void fake_nodes_init(fake_nodes *f, size_t n, const fake_reply *script, size_t nscript);

/* The fake clock (µs). */
extern int64_t fake_now_us;

/* The call's connections: "02" for nodes 0 and 2, "abc" for the wait
 * connections of nodes 0, 1 and 2. */
const char *fake_call_nodes(const fake_call *c, char *buf);

#endif
