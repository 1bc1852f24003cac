#include "rl_op.h"
#include "rl_lockops.h"
#include "../topology/rl_topology_cmds.h"

static const rl_op_family lock_family = {"lock", rl_lock_op_append, rl_lock_op_judge};
static const rl_op_family topology_family = {"topology", rl_topology_op_append, rl_topology_op_judge};

const rl_op_family *rl_op_family_of(rl_op_kind kind)
{
    switch (kind) { /* every kind named: the compiler asks where a new one goes */
    case RL_OP_LOCK:
    case RL_OP_UNLOCK:
    case RL_OP_EXTEND:
    case RL_OP_LOCK_WAIT:
    case RL_OP_WAKE_WAIT:
    case RL_OP_LEAVE:
    case RL_OP_FENCE_RAISE:
    case RL_OP_HOLDS:
    case RL_OP_INSPECT:
    case RL_OP_SCAN:
    case RL_OP_WATCH:
    case RL_OP_LOCK_MANY:
    case RL_OP_UNLOCK_MANY:
    case RL_OP_DEADLOCK:
    case RL_OP_DEADLOCK_DROP:
    case RL_OP_DEADLOCK_PART:
        break;
    case RL_OP_SENTINEL_MASTER:
    case RL_OP_ROLE:
    case RL_OP_CLUSTER_SLOTS:
        return &topology_family;
    }
    return &lock_family;
}

int rl_op_append(rl_conn *c, const rl_op *op, rl_send_form form, int64_t now_us)
{
    return rl_op_family_of(op->kind)->append(c, op, form, now_us);
}

int rl_op_judge(const rl_op *op, const void *reply, long long *value, char *err, size_t errlen)
{
    return rl_op_family_of(op->kind)->judge(op, NULL, reply, value, err, errlen);
}
