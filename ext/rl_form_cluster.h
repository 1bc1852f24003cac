/* Redis Cluster's server form ['cluster' => [seeds...]], or a phpredis
 * \RedisCluster, read into a cluster node (src/topology/rl_node_cluster.c:
 * routing, redirections, the slot maps). */
#ifndef RL_FORM_CLUSTER_H
#define RL_FORM_CLUSTER_H
#include "php.h"
#include "rl_form_options.h"
#include "src/topology/rl_node.h"

/* An array server form with a "cluster" key, or a phpredis \RedisCluster. */
bool rl_cluster_is_form(zval *server);

/* Reads the cluster form, or takes a \RedisCluster's masters as the seeds
 * (throws ValueError/TypeError naming the key) or returns NULL when out of memory. No
 * network I/O: the slot map is asked for on first use. */
rl_node *rl_cluster_from_zval(zval *server, const rl_settings *s, const rl_conn_source *conns, uint32_t argnum,
                              const char *what);

#endif
