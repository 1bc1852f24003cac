/* One quorum attempt at a lock, with the fencing write-back and the undo of
 * a lost attempt (rl_acquire.h). */
#include "rl_acquire.h"
#include "../base/rl_status.h"
#include "rl_lockops.h"
#include <stddef.h>
#include <string.h>

/* Fencing on several nodes: each node counted the acquisition on its own
 * counter, and the number is the largest count among the yes voters. It
 * holds only once a quorum of the nodes that granted it have a counter at
 * least that high, so that any later acquisition meets one of them while
 * it holds the lock there (docs/design/lock-semantics.md): the number is written back
 * (raise-only) to the granting nodes whose count is below it, and the
 * acquisition counts when a quorum has it and validity is left. w gets the
 * acquisition's votes where a node needs no raise, the write-back's
 * elsewhere; its outcome is returned. */
static rl_outcome fence_write_back(const rl_lock_nodes *ns, const rl_tally *t, rl_tally *w, const rl_lock_op *lock_op,
                                   long long fence, int64_t until_us)
{
    rl_vote *sub = w->spare;
    rl_lock_op op = *lock_op;
    size_t i, k = 0, have = 0;

    op.kind = RL_OP_FENCE_RAISE;
    op.fence = fence;
    for (i = 0; i < ns->n; i++) {
        w->votes[i] = t->votes[i];
        if (rl_fence_needs_raise(&t->votes[i], fence)) {
            memset(&sub[k], 0, sizeof sub[k]);
            sub[k++].conn = t->votes[i].conn; /* where the lock went (a Cluster's ASK target) */
        } else if (t->votes[i].err.code == RL_OK && t->votes[i].yes) {
            have++; /* granted with the number already */
        }
    }
    if (have < ns->quorum && k > 0) {
        ns->fanout(&op, sub, k, ns->quorum - have, 1, &ns->timeouts);
        for (i = 0, k = 0; i < ns->n; i++) {
            if (rl_fence_needs_raise(&t->votes[i], fence)) {
                w->votes[i] = sub[k++];
            }
        }
    }
    rl_count_votes(&w->count, w->votes, ns->n);
    return rl_decide(&w->count, until_us, ns->now_us());
}

/* A lost attempt: taken back on every node its command went out to
 * (answered or not); with refuse_own, only where it was granted. */
static void undo(const rl_lock_nodes *ns, rl_tally *attempt, const rl_lock_op *lock_op)
{
    rl_release_where(ns, attempt, lock_op, lock_op->refuse_own ? rl_granted : rl_needs_undo);
}

int rl_attempt_run(const rl_lock_nodes *ns, const rl_lock_op *asked, int ours_before, int first, rl_attempt *a)
{
    rl_lock_op held_op;
    const rl_lock_op *op = asked;
    if (ours_before) { /* a re-entrant acquire keeps its number (with fencing) */
        held_op = *asked;
        held_op.held = 1;
        op = &held_op;
    }
    /* the write-back's votes, allocated before anything is sent */
    int write_back = ns->fencing && ns->n > 1;
    rl_tally w;

    memset(a, 0, offsetof(rl_attempt, tally)); /* not the tally's votes: kilobytes, set as they are used */
    a->start_us = ns->now_us();
    if (rl_tally_init(&a->tally, ns) != 0) {
        return RL_E_NOMEM;
    }
    if (write_back && rl_tally_init(&w, ns) != 0) {
        rl_tally_free(&a->tally);
        return RL_E_NOMEM;
    }
    rl_tally_run(ns, &a->tally, op, 1);
    /* A guard's waiter is told the work is done by a quorum of nodes, not
     * one: a node the holder never reached (its reply came after the
     * quorum decided) is free and has the waiter in no queue either (it
     * granted the waiter's first try there, taken back), and answers DONE
     * while the rebuild runs on. */
    size_t done = 0;
    for (size_t i = 0; i < ns->n && op->guard; i++) {
        done += a->tally.votes[i].err.code == RL_OK && !a->tally.votes[i].yes
                && a->tally.votes[i].value == RL_PTTL_DONE;
    }
    a->done = done > 0 && done >= ns->quorum;
    a->outcome = rl_tally_decide(ns, &a->tally, a->start_us, op->ttl_ms, !ours_before, &a->until_us);
    a->late = a->outcome == RL_LOST && a->tally.count.yes >= ns->quorum && !ours_before;
    a->fence = a->outcome == RL_WON && ns->fencing ? rl_fence_of(a->tally.votes, ns->n) : 0;
    if (a->fence > 0 && write_back) {
        a->outcome = fence_write_back(ns, &a->tally, &w, op, a->fence, a->until_us);
        if (a->outcome != RL_WON && !ours_before) {
            undo(ns, &a->tally, op);
        }
        if (a->outcome != RL_WON) {
            /* from here the write-back's votes tell what happened */
            memcpy(a->tally.votes, w.votes, ns->n * sizeof(rl_vote));
            a->tally.count = w.count;
        }
    } else if (a->outcome != RL_WON && rl_attempt_needs_undo(&a->tally.count) && !ours_before) {
        undo(ns, &a->tally, op); /* some node may hold our token: take it back (a late grant too) */
    }
    if (write_back) {
        rl_tally_free(&w);
    }
    a->contended = a->outcome == RL_LOST && first && !a->late;
    a->pttl = a->late ? RL_PTTL_TAKEN_BACK : rl_shortest_pttl(a->tally.votes, ns->n);
    return 0;
}

void rl_attempt_free(rl_attempt *a)
{
    if (a->tally.votes != NULL) {
        rl_tally_free(&a->tally);
    }
}
