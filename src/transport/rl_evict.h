/* Whether a node can evict lock keys: what its reply to CONFIG GET
 * maxmemory* says (asked in a fresh connection's first write, read among
 * the discards: rl_handshake.c, rl_conn.c), and the process-wide record of
 * the nodes found so, so that each is reported once per process.
 *
 * Every lock key carries a TTL, so every evicting policy can take one: the
 * allkeys-* ones, and the volatile-* ones too (volatile-ttl even prefers
 * the shortest TTLs). Only maxmemory 0 (no limit) or the policy noeviction
 * keeps a held lock's key until its TTL or its release. Plain C, no PHP. */
#ifndef RL_EVICT_H
#define RL_EVICT_H
#include <stddef.h>
#include <stdint.h>

/* What a node was found to be. */
#define RL_EVICT_UNKNOWN (-1) /* not asked yet, or CONFIG refused (an ACL, a renamed command) */
#define RL_EVICT_SAFE 0       /* maxmemory 0, or policy noeviction */
#define RL_EVICT_RISKY 1      /* maxmemory > 0 and another policy: lock keys can be evicted */

/* Room for a policy's name (the longest is "allkeys-random", 14 bytes). */
#define RL_EVICT_POLICY_LEN 32

/* Judges the reply (a redisReply *) to CONFIG GET maxmemory*: name/value
 * pairs, a flat array (RESP2) or a map (RESP3). RL_EVICT_RISKY copies the
 * policy into policy[0..policy_len) (printable bytes only, cut to fit).
 * Anything else than the pairs, an error, a value that is not a plain
 * number, or a missing maxmemory-policy when maxmemory > 0 is
 * RL_EVICT_UNKNOWN. Reads only inside the reply's declared bounds. */
int rl_evict_judge(const void *reply, char *policy, size_t policy_len);

/* The process-wide record (every thread's, under a mutex). */

/* At most this many nodes are recorded; more are neither counted nor
 * reported. */
#define RL_EVICT_NODES_MAX 1024

/* Records node (its address, rl_endpoint_describe()) as able to evict;
 * *added (when not NULL) is set to 1 when it was not recorded before, else
 * 0. Returns 1 while no logger has been told about it (rl_evict_claim),
 * else 0 (also when the record is full). */
int rl_evict_seen(const char *node, int *added);

/* 1 for the one caller that reports node (recorded by rl_evict_seen and
 * not claimed before), else 0. */
int rl_evict_claim(const char *node);

/* How many nodes were recorded. */
uint64_t rl_evict_nodes(void);

/* Forgets every node (the module's end; the unit tests). */
void rl_evict_forget(void);

#endif
