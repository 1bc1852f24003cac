/* Redis Cluster as a node: the server form ['cluster' => [seeds...]], the
 * per-process cache of each cluster's slot map, and routing an operation
 * to the master of its key's slot (following MOVED, ASK, TRYAGAIN and
 * CLUSTERDOWN within the call). The slot arithmetic and the judging of
 * CLUSTER SLOTS and redirections are plain C in src/topology/rl_slots.c. */
#ifndef RL_CLUSTER_H
#define RL_CLUSTER_H
#include "php.h"
#include "rl_config.h"
#include "rl_object.h"

typedef struct rl_cgroup rl_cgroup;

/* GINIT/GSHUTDOWN: the cache of slot maps (per thread on a ZTS PHP, else per process). */
void rl_cluster_init(HashTable *table);
void rl_cluster_shutdown(HashTable *table);

/* An array server form with a "cluster" key, or a phpredis \RedisCluster. */
bool rl_cluster_is_form(zval *server);

/* Parses the cluster form, or takes a \RedisCluster's masters as the seeds
 * (throws ValueError/TypeError naming the key). No network I/O of ours: the
 * slot map is asked for on first use. */
rl_cgroup *rl_cluster_new(zval *server, const rl_settings *s, bool persistent, uint32_t argnum, const char *what);

/* Frees g and the connections it owns (none when persistent: the pool's). */
void rl_cluster_free(rl_cgroup *g);

/* The connection that names the cluster in messages until a key is routed. */
rl_conn *rl_cluster_placeholder(rl_cgroup *g);

/* Points o->conns[i] (and o->wait_conns[i], when made) at the master of
 * key's slot, asking for the slot map first when there is none. 0, or a
 * status with the reason in err (o->conns[i] is then the placeholder). */
int rl_cluster_route(rl_object *o, size_t i, const char *key, size_t key_len, char *err, size_t errlen);

/* After a fan-out: node i's vote, when it is a redirection or a sign that
 * the map changed, is replaced by the outcome of following it (bounded).
 * t: the call's timeouts. */
void rl_cluster_follow(rl_object *o, size_t i, const rl_op *op, rl_vote *vote, const rl_timeouts *t);

/* The wait connection for the node c (a master connection of g). */
rl_conn *rl_cluster_wait_conn(rl_cgroup *g, rl_conn *c);

/* Per-process counters of every cluster: redirections followed, slot maps
 * fetched. */
void rl_cluster_counters(zend_ulong *redirects, zend_ulong *refreshes);

#endif
