/* What a server offers beyond the commands every supported version has,
 * learned once per socket from the probes a fresh connection sends in its
 * first write (rl_identify_append(): no round trip of their own; their
 * replies are read among the discards, rl_conn.c). Forgotten when the
 * socket closes: the next one may reach another server (a failover, an
 * upgrade). Plain C, no PHP. */
#ifndef RL_CAPS_H
#define RL_CAPS_H
#include "rl_evict.h"

typedef struct rl_caps {
    int msetex;                             /* MSETEX (lockMany()'s first form): -1 not known yet, 0 no, 1 yes */
    int delex;                              /* DELEX key IFEQ value (Redis 8.4+, Valkey 9.2+): as msetex */
    int delifeq;                            /* DELIFEQ key value (Valkey 9.0+): as msetex */
    int evict;                              /* the server can evict lock keys (rl_evict.h): RL_EVICT_UNKNOWN
                    until the reply to CONFIG GET maxmemory* is read, or when refused */
    char evict_policy[RL_EVICT_POLICY_LEN]; /* RL_EVICT_RISKY: its maxmemory-policy */
} rl_caps;

/* The glob of COMMAND LIST FILTERBY PATTERN that lists the commands looked
 * for: msetex, delex and delifeq (and nothing else on Redis 7.0 to 8.6 or
 * Valkey 8 to 9.1; any other name it matches is ignored). One flat reply
 * of names, unlike COMMAND INFO's, which nests deeper than a lock reply may. */
#define RL_CAPS_PATTERN "[dm]*e[xq]"

/* Everything not known (a fresh or closed socket). */
void rl_caps_forget(rl_caps *caps);

/* Reads the reply (a redisReply *) to COMMAND LIST FILTERBY PATTERN
 * RL_CAPS_PATTERN into msetex, delex and delifeq: 1 for each name listed
 * (any case), else 0. An error (a server without COMMAND LIST, an ACL) or
 * a reply of another shape is 0 for all three: not known to have them.
 * Reads only inside the reply's declared bounds. */
void rl_caps_from_commands(rl_caps *caps, const void *reply);

#endif
