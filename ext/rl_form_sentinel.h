/* Sentinel's server form ['sentinels' => [...], 'service' => 'mymaster'],
 * read into a Sentinel node (src/topology/rl_node_sentinel.c: finding the
 * master, the cache, failover). */
#ifndef RL_FORM_SENTINEL_H
#define RL_FORM_SENTINEL_H
#include "php.h"
#include "rl_form_options.h"
#include "src/topology/rl_node.h"

/* An array server form with a "sentinels" or "service" key. */
bool rl_sentinel_is_form(zval *server);

/* Reads the sentinel form (throws ValueError/TypeError naming the key), or
 * returns NULL when out of memory. No network I/O: the master is found on
 * first use. */
rl_node *rl_sentinel_from_zval(zval *server, const rl_settings *s, const rl_conn_source *conns, uint32_t argnum,
                               const char *what);

#endif
