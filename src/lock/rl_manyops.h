/* All-or-nothing locks of several resources (LOCK_MANY, UNLOCK_MANY): how
 * they are written (one script, each resource's keys in turn) and how
 * their replies count (rl_lockops.c hands them here). */
#ifndef RL_MANYOPS_H
#define RL_MANYOPS_H
#include <stddef.h>
#include "rl_op.h"

/* The most resources one call takes: its script has 4 keys per resource
 * (19 for the release), and its waiter's queue moves among them. */
#define RL_MANY_MAX 64

/* Appends op (LOCK_MANY or UNLOCK_MANY) in form: a try's first form on a
 * server that has MSETEX (c->caps.msetex), not a Cluster's (op->by_slot), is MSETEX NX PX; else the
 * script, by EVALSHA, or EVAL in the EVAL forms. 0 or RL_E_NOMEM. */
int rl_many_op_append(rl_conn *c, const rl_lock_op *op, rl_send_form form, int64_t now_us);

/* Judges a script's reply (an integer, or a queued waiter's array: its
 * "INDEX ID HOLDER" in out->text; errors are the lock family's). */
int rl_many_op_judge(const rl_lock_op *op, const void *reply, rl_result *out, char *err, size_t errlen);

/* Reads a queued no's result text ("INDEX ID HOLDER"): the key the waiter
 * waits for (index < nkeys) and the rest (pointing into msg), as
 * rl_queued_parse() reads it. 0 when msg is not one. */
int rl_many_blocked(const char *msg, size_t nkeys, size_t *index, const char **rest);

#endif
