/* What an operator sees of a resource (the inspect() methods, and the
 * redislock command's "show"): its kind, holders, TTL, waiters and fence
 * counter as each node has them, read by one script per node. */
#ifndef RL_METHOD_INSPECT_H
#define RL_METHOD_INSPECT_H
#include "php.h"

/* The name a holder_names token carries: host, pid and the request (the
 * method and path of a web request, never its query string; else the
 * SAPI and the script), written to out (cap bytes); its length. */
size_t rl_holder_name(char *out, size_t cap);

/* The bodies of inspect(), locks() and watch() are declared by the list:
 * inspect(string $resource): array. RedisLock: the resource's state, or an
 * exception when its node cannot answer; RedLock: "nodes", each node's
 * state or its error, an exception only when no node answered.
 * locks(string $pattern = '*', int $limit = 1000): list of the resource
 * names whose lock keys (prefix . name) match pattern, by SCAN on every
 * node (a Cluster's every master), sorted; derived keys left out.
 * watch(string $resource, float $timeout): bool. Blocks until a release
 * of resource wakes a waiter (its wake streams, read from now), at most
 * timeout seconds: true when one did. A release with nobody waiting, or
 * an acquisition, writes no wake: look again (inspect) when it returns. */
#include "rl_method_list.h"

#endif
