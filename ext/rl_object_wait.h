/* A wait for a lock with its deadlock detection traced (ext/rl_object_wait.c). */
#ifndef RL_OBJECT_WAIT_H
#define RL_OBJECT_WAIT_H
#include "rl_object_lock.h"

/* rl_wait_run() of like, and with traced a lock's deadlock detection
 * (like->deadlock set for the wait, NULL after it): a cycle of waits
 * closing at this waiter is a RedisLockDeadlockException, -1
 * (ext/rl_object_wait.c). Else rl_wait_run()'s result and *status. */
int rl_lock_wait_traced(rl_object *o, const rl_lock_nodes *ns, rl_lock_op *like, int64_t deadline_us, int promoting,
                        const rl_wait_hooks *hooks, bool traced, int *status);

#endif
