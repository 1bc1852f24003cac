#include "rl_op.h"
#include "../base/rl_status.h"
#include "../topology/rl_topology_cmds.h"

rl_op rl_lock_eop(const rl_lock_op *op)
{
    rl_op e = {0};
    e.kind = (int)op->kind;
    e.family = &rl_lock_family;
    e.args = op;
    e.key = op->key;
    e.key_len = op->key_len;
    /* a waiter's own queue entries and wake cursor are on the master it
     * queued at; a release may fall back to the lock key alone */
    e.flags = (op->kind == RL_OP_LEAVE || op->kind == RL_OP_WAKE_WAIT ? RL_ROUTE_STAYS : 0)
              | (op->kind == RL_OP_UNLOCK ? RL_ROUTE_NARROWS : 0);
    e.repeat = op->repeat;
    e.prefix = op->asking ? rl_asking_prefix : NULL;
    return e;
}

size_t rl_fanout(const rl_lock_op *op, rl_vote *votes, size_t n, size_t need, int early, const rl_timeouts *t)
{
    rl_op e = rl_lock_eop(op);
    return rl_engine_run(&e, votes, n, need, early, t);
}

int rl_op_append(rl_conn *c, const rl_lock_op *op, rl_send_form form, int64_t now_us)
{
    rl_op e = rl_lock_eop(op);
    return rl_lock_family.append(c, &e, form, now_us) < 0 ? RL_E_NOMEM : 0;
}

int rl_op_judge(const rl_lock_op *op, const void *reply, rl_result *out, char *err, size_t errlen)
{
    rl_op e = rl_lock_eop(op);
    return rl_lock_family.judge(&e, NULL, reply, out, err, errlen);
}
