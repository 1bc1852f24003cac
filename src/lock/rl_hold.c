/* Extend, holds and release on the node set (rl_hold.h). */
#include "rl_hold.h"
#include "rl_native.h"
#include "../base/rl_status.h"
#include <stddef.h>
#include <string.h>

static int begin(const rl_lock_nodes *ns, rl_verdict *v)
{
    memset(v, 0, offsetof(rl_verdict, tally)); /* not the tally's votes: kilobytes, set as they are used */
    v->start_us = ns->now_us();
    return rl_tally_init(&v->tally, ns);
}

/* A lock's extend (and holds) has one key; a shared lock's needs its
 * holders' key too: sent so when the caller holds it shared, else when a
 * node says so. */
static void run_either_form(const rl_lock_nodes *ns, rl_verdict *v, rl_lock_op *op, int early)
{
    rl_tally_run(ns, &v->tally, op, early);
    if (op->mode != RL_MODE_SHARED && rl_extend_wants_shared(v->tally.votes, ns->n)) {
        op->mode = RL_MODE_SHARED;
        rl_tally_run(ns, &v->tally, op, early);
    }
}

static int not_acknowledged(const rl_vote *v)
{
    return v->err.code == RL_E_REPLICAS;
}

int rl_extend_run(const rl_lock_nodes *ns, const rl_lock_op *extend_op, rl_verdict *v)
{
    rl_lock_op op = *extend_op;
    if (begin(ns, v) != 0) {
        return RL_E_NOMEM;
    }
    run_either_form(ns, v, &op, 0);
    v->outcome = rl_tally_decide(ns, &v->tally, v->start_us, op.ttl_ms, 0, &v->until_us);
    /* an extend that too few replicas acknowledged (min_replicas) is not
     * kept: the lock is released on those nodes */
    if (v->outcome != RL_WON) {
        v->unacknowledged = rl_release_where(ns, &v->tally, &op, not_acknowledged) > 0;
    }
    return 0;
}

int rl_holds_run(const rl_lock_nodes *ns, const rl_lock_op *holds_op, rl_verdict *v)
{
    rl_lock_op op = *holds_op;
    if (begin(ns, v) != 0) {
        return RL_E_NOMEM;
    }
    run_either_form(ns, v, &op, 1);
    v->outcome = rl_decide(&v->tally.count, 0, 0);
    return 0;
}

/* A native release that found waiters queued owes them the release
 * script's wake (rl_native.h): sent to those nodes, on the connections the
 * release went to. Its reply changes nothing: the lock is released, and a
 * waiter it does not reach (a node that fails now) looks again at its
 * recheck, as after a release that lost the race to the TTL. */
static void wake_owed(const rl_lock_nodes *ns, rl_tally *t, const rl_lock_op *release)
{
    rl_lock_op op = *release;
    size_t i, k = 0;

    op.kind = RL_OP_WAKE;
    for (i = 0; i < ns->n; i++) {
        const rl_vote *r = &t->votes[i];
        if (r->err.code == RL_OK && r->yes && r->value == RL_RELEASE_WAKE_OWED) {
            memset(&t->spare[k], 0, sizeof t->spare[k]);
            t->spare[k++].conn = r->conn;
        }
    }
    if (k > 0) {
        ns->fanout(&op, t->spare, k, k, 0, &ns->timeouts);
    }
}

int rl_release_run(const rl_lock_nodes *ns, const rl_lock_op *op, rl_verdict *v)
{
    size_t i;
    if (begin(ns, v) != 0) {
        return RL_E_NOMEM;
    }
    rl_tally_run(ns, &v->tally, op, 0);
    v->outcome = rl_decide(&v->tally.count, 0, 0);
    for (i = 0; i < ns->n; i++) {
        v->one_key = v->one_key || v->tally.votes[i].one_key;
    }
    if (op->plain) {
        wake_owed(ns, &v->tally, op);
    }
    return 0;
}

void rl_verdict_free(rl_verdict *v)
{
    if (v->tally.votes != NULL) {
        rl_tally_free(&v->tally);
    }
}
