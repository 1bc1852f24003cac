/* The topology family of commands (src/engine/rl_engine.h): what a node is and where the
 * master is. SENTINEL get-master-addr-by-name and ROLE (their replies read
 * by rl_sentinel.c), CLUSTER SLOTS (read into the op's slot map by
 * rl_slots.c); and ASKING, the prefix of a command a Cluster's ASK
 * redirection sends to another node. This file writes the commands and
 * turns what rl_sentinel.c and rl_slots.c read into a vote. */
#ifndef RL_TOPOLOGY_CMDS_H
#define RL_TOPOLOGY_CMDS_H
#include <stddef.h>
#include <stdint.h>
#include "../engine/rl_engine.h"

/* The family's kinds (an engine op's kind tag). */
typedef enum rl_topology_kind {
    RL_TOPO_SENTINEL_MASTER, /* SENTINEL get-master-addr-by-name <service>: a yes
                                with the master's host in the result's text and
                                its port in its value */
    RL_TOPO_ROLE,            /* ROLE: yes when the node is a master */
    RL_TOPO_CLUSTER_SLOTS    /* CLUSTER SLOTS into *slot_map (the first complete
                                map wins): yes when it covers every slot */
} rl_topology_kind;

/* The family's arguments. */
typedef struct rl_topology_args {
    const char *service; /* SENTINEL_MASTER: the group's name */
    size_t service_len;
    void *slot_map; /* CLUSTER_SLOTS: the rl_slot_map to fill */
} rl_topology_args;

/* The topology family: the engine's hooks for its kinds. */
extern const rl_family rl_topology_family;

/* The engine op of kind with args (which must outlive it). */
rl_op rl_topology_op(rl_topology_kind kind, const rl_topology_args *args);

/* Writes op (the form does not matter) to c's output buffer. 0 or
 * RL_E_NOMEM. */
int rl_topology_op_append(rl_conn *c, const rl_op *op, rl_send_form form, int64_t now_us);

/* The family's judge: SENTINEL_MASTER's yes puts the master's host in
 * out->text and its port in out->value; ROLE is a yes from a master;
 * CLUSTER_SLOTS fills the slot map unless it is complete already (the
 * first complete map wins; a host left out in the reply stands for c's
 * host, "" without c): a yes when it covers every slot, a no when it does
 * not, RL_REPLY_INVALID when the map does not parse. A refusal for want
 * of a login is RL_REPLY_NOAUTH. */
int rl_topology_op_judge(const rl_op *op, rl_conn *c, const void *reply, rl_result *out, char *err, size_t errlen);

/* Appends ASKING (Cluster: before a command redirected by ASK; its +OK
 * answers for nothing waited for). 0 or RL_E_NOMEM. */
int rl_asking_append(rl_conn *c, int64_t now_us);

/* ASKING as an op's prefix (rl_op.prefix): 1 (the replies owed to nobody)
 * or -1 when out of memory. */
int rl_asking_prefix(rl_conn *c, int64_t now_us);

#endif
