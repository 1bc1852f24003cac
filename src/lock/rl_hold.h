/* The operations on a lock once taken: extend (asked again in the shared
 * form when a node says the lock is shared; an extend too few replicas
 * acknowledged is released), holds, and release (also forced). Each runs
 * on every node and says what the votes decide; the caller keeps its held
 * records, counts, logs and throws (ext/rl_object_lock.c). */
#ifndef RL_HOLD_H
#define RL_HOLD_H
#include "rl_node_set.h"

typedef struct rl_verdict {
    int64_t start_us; /* when the operation began (the log's elapsed time) */
    rl_outcome outcome;
    int64_t until_us;   /* extend: when the lock stops being trusted */
    int unacknowledged; /* extend not won: released where too few replicas acknowledged it */
    int one_key;        /* release: a Cluster node released on the lock key alone (its
                              slot being migrated): waiters were not woken there */
    rl_tally tally;     /* the votes (of the last form sent); last: the fields above
                              are cleared without its votes */
} rl_verdict;

/* Each returns 0 (v to be freed with rl_verdict_free()) or RL_E_NOMEM
 * before anything was sent. */

/* op: an RL_OP_EXTEND; mode RL_MODE_SHARED when the caller holds it shared
 * (else it is asked again so when a node says the lock is shared). */
int rl_extend_run(const rl_lock_nodes *ns, const rl_lock_op *op, rl_verdict *v);

/* op: an RL_OP_HOLDS, its mode as for extend. */
int rl_holds_run(const rl_lock_nodes *ns, const rl_lock_op *op, rl_verdict *v);

/* op: an RL_OP_UNLOCK (force set: whoever holds it). */
int rl_release_run(const rl_lock_nodes *ns, const rl_lock_op *op, rl_verdict *v);

void rl_verdict_free(rl_verdict *v);

#endif
