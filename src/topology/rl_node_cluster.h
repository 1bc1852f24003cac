/* A Redis Cluster as a node (rl_node.h): ['cluster' => [seeds...]] once
 * ext/ has read it. Each operation goes to the master of its key's slot. */
#ifndef RL_NODE_CLUSTER_H
#define RL_NODE_CLUSTER_H
#include "rl_node.h"

/* seeds[0..n): TCP addresses, the first one's user, password and TLS used
 * for every node. No network I/O: the slot map is asked for on first use.
 * The slot map is kept in cache (the thread's). NULL when out of memory. */
rl_node *rl_cluster_node_new(const rl_endpoint *seeds, size_t n, const rl_conn_source *conns, rl_topology_cache *cache);

#endif
