/* A node of a lock object, behind one table of operations: one Redis
 * server (rl_node_direct.c), a Sentinel group's master (rl_node_sentinel.c)
 * or the master of a key's slot in a Redis Cluster (rl_node_cluster.c).
 * rl_nodes_run() runs one operation on every node of an object: each is
 * routed to where the key lives, all are asked at once (rl_engine_run), and
 * each follows what its kind must after the reply (a redirection, a
 * failover). The object and the lock protocol know nodes only by this. */
#ifndef RL_NODE_H
#define RL_NODE_H
#include <stddef.h>
#include "../base/rl_error.h"
#include "../base/rl_strmap.h"
#include "../engine/rl_engine.h"

/* Where a node's connections come from: the caller's pool of persistent
 * connections, or connections of its own (rl_own_conns). */
typedef struct rl_conn_source {
    rl_conn *(*get)(const rl_endpoint *ep, rl_conn_role role); /* NULL when out of memory */
    void (*put)(rl_conn *c);                                   /* a connection the node no longer uses */
} rl_conn_source;

/* rl_conn_new() and rl_conn_free(): every connection is the node's own. */
extern const rl_conn_source rl_own_conns;

typedef struct rl_node rl_node;

typedef struct rl_node_ops {
    const char *kind; /* "server", "sentinel group", "cluster": for messages */
    /* Points n->conn at where key lives (a group's master, found when not
     * known yet; a slot's master). RL_OK, or a status with the reason in
     * err (n->conn then names the node without a connection). NULL: a node
     * that is always where it is. */
    int (*route)(rl_node *n, const char *key, size_t key_len, const rl_timeouts *lookup, rl_error *err);
    /* After the fan-out: when the vote is a redirection or a sign that the
     * topology changed, replaces it with the outcome of following that
     * (bounded by t; a Sentinel master is looked up again within lookup),
     * on a connection of the vote's connection's role (a blocking read is
     * followed on waiting connections). NULL: nothing to follow. */
    void (*follow)(rl_node *n, const rl_op *op, rl_vote *vote, const rl_timeouts *t, const rl_timeouts *lookup);
    /* The waiting connection (a second one, for blocking reads) of where
     * n->conn points; NULL when out of memory. */
    rl_conn *(*wait_conn)(rl_node *n);
    /* Non-zero when a and b (of this kind) are the same node: a quorum of
     * them would not be independent. */
    int (*same)(const rl_node *a, const rl_node *b);
    const char *same_because; /* what two such nodes have in common when
                                 same (NULL: they are one server) */
    /* Frees n and gives back its connections. */
    void (*free)(rl_node *n);
    /* A node of several masters (a cluster): for each master, one slot it
     * serves (route by a key of that slot to reach it), at most max, read
     * from the slot map (asked for within lookup when not known yet).
     * Returns how many; 0 with err set when the map cannot be had. NULL:
     * one master, reached by any key. */
    size_t (*masters)(rl_node *n, unsigned *slots, size_t max, const rl_timeouts *lookup, rl_error *err);
} rl_node_ops;

/* Every kind's node begins with this. */
struct rl_node {
    const rl_node_ops *ops;
    rl_conn *conn; /* where commands go now; before routing, a
                                     connection that only names the node */
    const rl_conn_source *conns;
};

/* A node for one Redis server. NULL when out of memory. */
rl_node *rl_direct_node_new(const rl_endpoint *ep, const rl_conn_source *conns);

/* Runs op on nodes[0..n) as described above; votes[] has n entries. t
 * bounds the command (with a WAIT for replicas, longer than lookup), lookup
 * the topology's own questions (a group's master, a cluster's slot map).
 * Returns the number of yes votes. */
size_t rl_nodes_run(rl_node *const *nodes, size_t n, const rl_op *op, rl_vote *votes, size_t need, int early,
                    const rl_timeouts *t, const rl_timeouts *lookup);

/* A blocking read (a waiter's wake wait) on every node at once, until one
 * answers: as rl_nodes_run(), on each node's waiting connection of where
 * op->key lives, and a redirection or failover followed there on a
 * waiting connection too. Returns the number of yes votes. */
size_t rl_nodes_wait(rl_node *const *nodes, size_t n, const rl_op *op, rl_vote *votes, const rl_timeouts *t,
                     const rl_timeouts *lookup);

/* Runs op on one connection alone, into *vote (cleared first). */
void rl_node_run_one(const rl_op *op, rl_vote *vote, rl_conn *c, const rl_timeouts *t);

/* Non-zero when keys[0..nkeys) cannot all go in one command to every node:
 * some node has several masters (a Cluster: masters is set) and the keys
 * are in more than one slot. */
int rl_nodes_split_keys(rl_node *const *nodes, size_t n, const char *const *keys, const size_t *key_lens, size_t nkeys);

/* Non-zero when a connection of a[0..na) and one of b[0..nb) go to the same node. */
int rl_conns_meet(rl_conn *const *a, size_t na, rl_conn *const *b, size_t nb);

/* Gives conns[0..n) back to their source. */
void rl_conns_put(const rl_conn_source *source, rl_conn *const *conns, size_t n);

/* A connection that is never connected, named name: how a node is named in
 * messages before it is routed. NULL when out of memory. */
rl_conn *rl_placeholder_new(const char *name);

/* Counts of every cluster node of the process (all threads). */
typedef struct rl_topology_counts {
    unsigned long long redirects;        /* MOVED and ASK redirections followed */
    unsigned long long map_refreshes;    /* slot maps asked for (CLUSTER SLOTS) */
    unsigned long long one_key_releases; /* releases on the lock key alone (a slot migrating) */
} rl_topology_counts;

void rl_topology_counts_get(rl_topology_counts *out);

/* What the nodes of one thread share: the master each Sentinel group was
 * last found at, and each cluster's slot map (a value stays at its address
 * until the cache is freed, so a node may keep a pointer to it). ext/ keeps
 * one in each thread's module globals and hands it to the nodes it makes;
 * a node is used only by the thread that made it. */
typedef struct rl_topology_cache {
    rl_strmap masters; /* sentinel group cache key => rl_sentinel_addr */
    rl_strmap maps;    /* cluster seeds and scheme => its slot map */
} rl_topology_cache;

/* Frees what the cache holds (the thread's end; any thread may call it). */
void rl_topology_cache_free(rl_topology_cache *cache);

#endif
