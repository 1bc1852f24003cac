/* Sentinel groups as nodes: the server form ['sentinels' => [...],
 * 'service' => 'mymaster'], the per-process cache of each group's master,
 * and running an operation with the groups' masters found first (and
 * found again, with one retry, after a failover). The judging of replies
 * is plain C in src/topology/rl_sentinel.c. */
#ifndef RL_TOPOLOGY_H
#define RL_TOPOLOGY_H
#include "php.h"
#include "rl_config.h"
#include "rl_object.h"

typedef struct rl_sgroup rl_sgroup;

/* GINIT/GSHUTDOWN: the cache of masters (per thread on a ZTS PHP, else per process). */
void rl_topology_init(HashTable *table);
void rl_topology_shutdown(HashTable *table);

/* An array server form with a "sentinels" or "service" key. */
bool rl_topology_is_group(zval *server);

/* Parses the sentinel form (throws ValueError/TypeError naming the key).
 * No network I/O: the master is found on first use. */
rl_sgroup *rl_group_new(zval *server, const rl_settings *s, bool persistent, uint32_t argnum, const char *what);

/* Frees g and what it owns (its connections unless they are the pool's). */
void rl_group_free(rl_sgroup *g, bool persistent);

/* The connection that names the group in messages until its master is known. */
rl_conn *rl_group_placeholder(rl_sgroup *g);

/* Non-zero when a and b watch the same master: the same service, and a
 * sentinel in common. */
int rl_group_same(const rl_sgroup *a, const rl_sgroup *b);

/* Non-zero when c is a connection the group owns (freed by rl_group_free). */
int rl_group_owns(rl_sgroup *g, rl_conn *c);

/* rl_object_run() for an object with sentinel groups. */
size_t rl_topology_run(rl_object *o, const rl_op *op, rl_vote *votes, size_t need, int early,
                       const rl_timeouts *t);

#endif
