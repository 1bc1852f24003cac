/* The tally of one operation on the node set, the validity decision, and
 * the compare-and-delete on picked nodes (rl_node_set.h). */
#include "rl_node_set.h"
#include "../base/rl_status.h"
#include <stdlib.h>
#include <string.h>

int rl_tally_init(rl_tally *t, const rl_lock_nodes *ns)
{
    size_t n = ns->n;
    t->n = n;
    t->quorum = ns->quorum;
    if (n <= RL_STACK_VOTES) {
        memset(t->stack, 0, n * sizeof(rl_vote)); /* the spare votes are cleared as they are used */
        t->votes = t->stack;
    } else if ((t->votes = calloc(2 * n, sizeof(rl_vote))) == NULL) {
        return RL_E_NOMEM;
    }
    t->spare = t->votes + n;
    memset(&t->count, 0, sizeof t->count);
    return 0;
}

void rl_tally_free(rl_tally *t)
{
    if (t->votes != t->stack) {
        free(t->votes);
    }
    t->votes = t->spare = NULL;
}

void rl_tally_run(const rl_lock_nodes *ns, rl_tally *t, const rl_lock_op *op, int early)
{
    ns->run(ns->ctx, op, t->votes, ns->quorum, early);
    rl_count_votes(&t->count, t->votes, ns->n);
}

rl_outcome rl_tally_decide(const rl_lock_nodes *ns, const rl_tally *t, int64_t start_us, long long ttl_ms, int fresh,
                           int64_t *until_us)
{
    *until_us = rl_valid_until(start_us, ttl_ms, ns->drift_factor, ns->redlock);
    return rl_decide(&t->count, ns->redlock || fresh ? *until_us : 0, ns->now_us());
}

size_t rl_release_where(const rl_lock_nodes *ns, rl_tally *t, const rl_lock_op *like, int (*pick)(const rl_vote *))
{
    rl_lock_op op = *like;
    size_t i, k = 0;

    op.kind = like->kind == RL_OP_LOCK_MANY ? RL_OP_UNLOCK_MANY : RL_OP_UNLOCK;
    for (i = 0; i < ns->n; i++) {
        if (pick(&t->votes[i])) {
            memset(&t->spare[k], 0, sizeof t->spare[k]);
            t->spare[k++].conn = t->votes[i].conn; /* where the command went (a Cluster's ASK target) */
        }
    }
    if (k > 0) {
        ns->fanout(&op, t->spare, k, 0, 0, &ns->timeouts); /* 0: a benched node keeps its deferred undo */
    }
    return k;
}
