/* What a cluster node does with a reply it did not want (rl_node_cluster.c
 * does it): a pure function of the vote, the operation, the time and what
 * this call followed so far, so the policy is unit-tested without a
 * cluster. */
#ifndef RL_CLUSTER_POLICY_H
#define RL_CLUSTER_POLICY_H
#include <stdint.h>
#include "rl_slots.h"
#include "../engine/rl_engine.h"

/* Redirections (MOVED, ASK) one call follows at once; past them (nodes
 * that disagree while a failover is gossiped) it pauses and looks again,
 * as for TRYAGAIN and CLUSTERDOWN, for as long as the call's timeout
 * allows, then gives up with RL_E_REDIRECTS. */
#define RL_CLUSTER_MAX_HOPS 5
/* Pause before asking again (within the call's timeout). */
#define RL_CLUSTER_PAUSE_US 25000

/* What one call followed so far. */
typedef struct rl_follow_state {
    int64_t start_us; /* when following began */
    int redirects;    /* redirections in the current batch */
    int one_key;      /* 1: releasing the lock key alone; -1: that cannot be (a shared lock) */
} rl_follow_state;

typedef enum rl_follow_step {
    RL_FOLLOW_STOP = 0, /* the vote stands (an answer, a failure not the map's, or out of time) */
    RL_FOLLOW_MOVED,    /* the slot moved: (refresh,) record rd for the slot when it is the key's, go to its master */
    RL_FOLLOW_ASK,      /* send once to rd's node, after ASKING */
    RL_FOLLOW_ONE_KEY,  /* TRYAGAIN on a release: release the lock key alone at the slot's master */
    RL_FOLLOW_RETRY,    /* (pause, refresh,) ask the slot's master again */
    RL_FOLLOW_MOVE_ON   /* the node is lost: refresh; if the map names another master, repeat there */
} rl_follow_step;

typedef struct rl_follow_plan {
    rl_follow_step step;
    int pause;      /* sleep RL_CLUSTER_PAUSE_US first */
    int refresh;    /* fetch the slot map first */
    int counted;    /* a redirection followed (the stats count it) */
    rl_redirect rd; /* MOVED, ASK: where to; its host is the answering node's when rd.same_host */
} rl_follow_plan;

/* The next step for vote, a reply to op on the master of slot, at now_us.
 * Giving up on time turns the vote into RL_E_REDIRECTS ("still <redirected
 * or answering> <the last reply> after the timeout (<ms> ms)"). */
rl_follow_plan rl_cluster_next_step(rl_follow_state *st, const rl_op *op, rl_vote *vote, int64_t now_us,
                                    const rl_timeouts *t);

#endif
