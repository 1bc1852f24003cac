/* One quorum attempt at a lock: the acquire on every node, the fencing
 * write-back of a won number, the undo of a lost attempt and the late-grant
 * rule. It returns what happened; the caller records a won lock, counts,
 * logs and throws (ext/rl_object_lock.c). */
#ifndef RL_ACQUIRE_H
#define RL_ACQUIRE_H
#include "rl_node_set.h"

/* An attempt's pttl after a late fresh grant that was taken back: the
 * resource is free and the waiter off the queue; look again at once, queued. */
#define RL_PTTL_TAKEN_BACK (-2)

typedef struct rl_attempt {
    int64_t start_us; /* when the attempt began (the log's elapsed time) */
    int64_t until_us; /* a won lock: when it stops being trusted */
    rl_outcome outcome;
    long long fence; /* a won lock's fence number (fencing), else 0 */
    int late;        /* a quorum granted a fresh token after its validity: lost, and taken back */
    int contended;   /* lost on the call's first attempt (not late): the lock was held */
    long long pttl;  /* the holder's shortest PTTL (rl_shortest_pttl()), or RL_PTTL_TAKEN_BACK */
    int done;        /* a guard's waiter: a node said a done release took it off the queue */
    rl_tally tally;  /* the votes that tell what happened (a fencing write-back's, where it
                            decided); last: the fields above are cleared without its votes */
} rl_attempt;

/* One attempt with op (LOCK or LOCK_WAIT, its token set). ours_before:
 * the token is already this process's lock (an owner taking it again,
 * promoting its shared lock, demoting its lock; the caller knows its held
 * records): where a lost attempt went through, the token still holds the
 * resource in the same kind or a stricter one, so nothing is taken back,
 * and a late reply is no late grant. first: the call's first attempt.
 * Returns 0 (a to be freed with rl_attempt_free()), or RL_E_NOMEM before
 * anything was sent. */
int rl_attempt_run(const rl_lock_nodes *ns, const rl_lock_op *op, int ours_before, int first, rl_attempt *a);
void rl_attempt_free(rl_attempt *a);

#endif
