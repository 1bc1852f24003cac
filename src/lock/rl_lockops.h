/* The lock family of commands (rl_op.h): how each lock kind is written to a
 * node (SET NX PX, the scripts by EVALSHA or EVAL, XREAD of a wake stream),
 * how its reply counts as a vote, and WAIT for replicas after it. */
#ifndef RL_LOCKOPS_H
#define RL_LOCKOPS_H
#include <stddef.h>
#include "rl_op.h"
#include "rl_lock_state.h"
#include "rl_lock_keys.h"
#include "rl_queued.h"

/* A WAKE_WAIT vote's value when a release named the waiter next in line
 * (the one after the waiter it woke): if that one is dead, nobody else is
 * woken, so the next one looks again when its reservation ends. */
#define RL_WAKE_NEXT 1

/* A WAKE_WAIT vote's value when a release ended the holder's work and woke
 * every waiter as done ("d"): a stampede guard's waiter (op->guard) returns
 * without the lock; for any other waiter it is a wake like "w". */
#define RL_WAKE_DONE 2

/* A guard's LOCK_WAIT vote's value when the node found it taken off the
 * queue by a done release it has not read yet (no PTTL: negative). */
#define RL_PTTL_DONE (-4)

/* Appends a release (compare-and-delete, as EVAL: nobody waits for its
 * reply, so there is no NOSCRIPT fallback) for each undo deferred on c
 * (rl_lock_state.h), and forgets them. Returns how many replies they owe. */
int rl_undos_append(rl_conn *c, int64_t now_us);

/* The lock family's writer: appends op (a lock kind) to c's output buffer
 * in the given form; a WAKE_WAIT reads from the waiter's cursor on c
 * (rl_lock_state.h). 0 or RL_E_NOMEM. */
int rl_lock_op_append(rl_conn *c, const rl_lock_op *op, rl_send_form form, int64_t now_us);

/* The lock family's judge (rl_op_judge()): what the reply says in *out (an
 * integer's value; a text result: a queued waiter's "ID HOLDER", a lock of
 * several's "INDEX ID HOLDER", INSPECT's state, SCAN's cursor, a WAKE_WAIT's
 * last entry id), what went wrong in err. With c, a WAKE_WAIT's last entry
 * id becomes the waiter's cursor on c instead of coming back in out. */
int rl_lock_op_judge(const rl_lock_op *op, rl_conn *c, const void *reply, rl_result *out, char *err, size_t errlen);

/* Does op ask for replica acknowledgement (a WAIT in the same write)? */
int rl_op_wants_ack(const rl_lock_op *op);

/* Appends "WAIT min_replicas replica_timeout_ms". 0 or RL_E_NOMEM. */
int rl_ack_append(rl_conn *c, const rl_lock_op *op, int64_t now_us);

/* Judges WAIT's reply: RL_REPLY_YES when at least op->min_replicas
 * acknowledged; RL_REPLY_NO with err saying how many of how many did;
 * RL_REPLY_ERROR (err: the server's message) otherwise. */
int rl_ack_judge(const rl_lock_op *op, const void *reply, char *err, size_t errlen);

#endif
