/* The topology family of commands (rl_op.h): what a node is and where the
 * master is. SENTINEL get-master-addr-by-name and ROLE (their replies read
 * by rl_sentinel.c), CLUSTER SLOTS (read into the op's slot map by
 * rl_slots.c); and ASKING, the prefix of a command a Cluster's ASK
 * redirection sends to another node. This file writes the commands and
 * turns what rl_sentinel.c and rl_slots.c read into a vote. */
#ifndef RL_TOPOLOGY_CMDS_H
#define RL_TOPOLOGY_CMDS_H
#include <stddef.h>
#include <stdint.h>
#include "../lock/rl_op.h"

/* The topology family's writer: appends op (SENTINEL_MASTER, ROLE,
 * CLUSTER_SLOTS; the form does not matter) to c's output buffer. 0 or
 * RL_E_NOMEM. */
int rl_topology_op_append(rl_conn *c, const rl_op *op, rl_send_form form, int64_t now_us);

/* The topology family's judge (rl_op_judge()): SENTINEL_MASTER's yes puts
 * the master's host in err and its port in *value; ROLE is a yes from a
 * master; CLUSTER_SLOTS fills op->slot_map unless it is complete already
 * (the first complete map wins; a host left out in the reply stands for
 * c's host, "" without c): a yes when it covers every slot, a no when it
 * does not, RL_REPLY_INVALID when the map does not parse. A refusal for
 * want of a login is RL_REPLY_NOAUTH. */
int rl_topology_op_judge(const rl_op *op, rl_conn *c, const void *reply, long long *value, char *err,
                         size_t errlen);

/* Appends ASKING (Cluster: before a command redirected by ASK; its +OK
 * answers for nothing waited for). 0 or RL_E_NOMEM. */
int rl_asking_append(rl_conn *c, int64_t now_us);

#endif
