#include "rl_cluster_policy.h"
#include "../base/rl_error.h"
#include "../base/rl_status.h"
#include <stdio.h>
#include <string.h>

static int is_lost(int status)
{
    return status == RL_E_CONNECT || status == RL_E_TIMEOUT || status == RL_E_IO;
}

/* A pause when the call's timeout leaves time for one; else the vote
 * becomes RL_E_REDIRECTS and 0 is returned. */
static int may_pause(const rl_follow_state *st, rl_vote *vote, int64_t now_us, const rl_timeouts *t, const char *doing)
{
    rl_error e;
    if (st->start_us + t->reply_us - now_us >= RL_CLUSTER_PAUSE_US) {
        return 1;
    }
    rl_error_set(&e, RL_E_REDIRECTS, "still %s %.200s after the timeout (%lld ms)", doing, vote->err.msg,
                 (long long)(t->reply_us / 1000));
    rl_vote_set_error(vote, &e);
    return 0;
}

rl_follow_plan rl_cluster_next_step(rl_follow_state *st, const rl_op *op, rl_vote *vote, int64_t now_us,
                                    const rl_timeouts *t)
{
    rl_follow_plan p;
    int kind = 0, wait = 0;

    memset(&p, 0, sizeof p);
    if (vote->err.code == RL_E_REPLY) {
        kind = rl_cluster_redirect(vote->err.msg, strlen(vote->err.msg), &p.rd);
        wait = rl_cluster_retryable(vote->err.msg, strlen(vote->err.msg));
    }
    if (kind) {
        if (++st->redirects > RL_CLUSTER_MAX_HOPS) {
            if (!may_pause(st, vote, now_us, t, "redirected")) {
                return p; /* STOP */
            }
            p.pause = 1;
            st->redirects = 1; /* this one opens the next batch */
        }
        p.counted = 1;
        if (p.rd.same_host && vote->conn->ep.host == NULL) {
            return p; /* no host to go to: STOP */
        }
        if (p.rd.same_host) {
            snprintf(p.rd.host, sizeof p.rd.host, "%s", vote->conn->ep.host);
        }
        /* a slot moved: the map is old, most likely for more slots than
         * this one (a failover, a resharding): fetch it again, once a batch
         * of redirections (masters that disagree would make it once a hop) */
        p.refresh = kind == RL_REDIRECT_MOVED && st->redirects == 1;
        p.step = kind == RL_REDIRECT_MOVED ? RL_FOLLOW_MOVED : RL_FOLLOW_ASK;
    } else if (wait == RL_CLUSTER_TRYAGAIN && (op->flags & RL_ROUTE_NARROWS) && st->one_key == 0) {
        /* a release names the lock's queue, reservation and wake streams
         * too, split between two nodes (or missing on the importing one)
         * until the migration ends: the lock key alone is released at once */
        st->one_key = 1;
        p.step = RL_FOLLOW_ONE_KEY;
    } else if (wait) {
        /* TRYAGAIN (the keys of a slot being migrated are split between two
         * nodes) or CLUSTERDOWN (a failover under way): pause and ask again,
         * for as long as the call's timeout allows */
        if (!may_pause(st, vote, now_us, t, "answering")) {
            return p;
        }
        st->redirects = 0; /* an ASK back to the importing node is expected: the wait bounds the loop */
        p.pause = 1;
        p.refresh = wait == RL_CLUSTER_DOWN;
        p.step = RL_FOLLOW_RETRY;
    } else if (is_lost(vote->err.code) && now_us - st->start_us <= t->reply_us) {
        /* the node is gone or silent: if the map now names another master
         * for the slot, go on there (out of time: maps that name lost
         * masters in turn) */
        p.step = RL_FOLLOW_MOVE_ON;
    }
    return p;
}
