/* A Sentinel group as a node (rl_node.h): ['sentinels' => [...],
 * 'service' => 'mymaster'] once ext/ has read it. */
#ifndef RL_NODE_SENTINEL_H
#define RL_NODE_SENTINEL_H
#include "rl_node.h"

typedef struct rl_sentinel_spec {
    const char *service;
    size_t service_len;
    const rl_endpoint *sentinels; /* each with the sentinels' credentials */
    size_t n;
    const rl_endpoint *master_tpl;           /* the master's user, password and database; no address */
    const char *sentinel_credentials_digest; /* a digest (hex) of each sentinel's user and
                                             password, never a password: part of the cache key */
} rl_sentinel_spec;

/* No network I/O: the master is found on first use (and kept in cache,
 * the thread's). NULL when out of memory. */
rl_node *rl_sentinel_node_new(const rl_sentinel_spec *spec, const rl_conn_source *conns, rl_topology_cache *cache);

#endif
