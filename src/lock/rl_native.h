/* A release by the server's own compare-and-delete: DELEX key IFEQ token
 * (Redis 8.4+, Valkey 9.2+) or DELIFEQ key token (Valkey 9.0+), where the
 * connection's probe found one (rl_caps.h), in place of the release script.
 *
 * The release script (lua/release.lua) does, for a lock its token holds:
 * GET, DEL, then the wake of the first live waiter queued (LPOP of the
 * queue, a wake stream entry, a reservation). A compare-and-delete is only
 * the first part, so the native release is that command and EXISTS of the
 * waiters' queue in the same write (one round trip, two replies): with no
 * queue the release is exactly the script's (its LPOP found nothing); with
 * one, the script's wake follows as its own script (lua/wake.lua, a second
 * round trip, only then). Other clients' commands may run between the
 * delete and EXISTS, which is harmless: a waiter queued before the delete
 * is still queued at EXISTS (only its own LEAVE, a wake or the queue's TTL,
 * which outlives every entry's deadline, take it out), and one that comes
 * after it finds the lock free and takes it (or, behind a woken waiter's
 * reservation, queues, and EXISTS sees it).
 *
 * Only where the two are the same: a lock (not a shared lock or a permit:
 * other keys) the caller holds under this token and took without a wait
 * (rl_lock_op.plain; after a wait others are likely queued, and the
 * script's wake saves the second round trip), not
 * forced (whoever holds it), not a stampede guard's done release (it
 * wakes every waiter with a result), not narrowed to the lock key alone
 * (a Cluster slot migrating: that script wakes nobody), not after ASK
 * (ASKING covers one command), not in a retry's or EVAL's form. Fencing
 * needs nothing here: the release script touches no fence counter either
 * (the counter only grows, at each acquisition). A refusal of the command
 * (unknown: renamed away, a proxy without it; NOPERM) or WRONGTYPE (the
 * key is another kind now) sends the script instead, in the same call. */
#ifndef RL_NATIVE_H
#define RL_NATIVE_H
#include <stddef.h>
#include "rl_op.h"

/* A yes vote's value after a native release that found waiters queued:
 * the wake (RL_OP_WAKE) is owed on that node. */
#define RL_RELEASE_WAKE_OWED 2

/* May op go to c as the server's compare-and-delete? prefixed: something
 * is sent right before it (ASKING). */
int rl_native_release_fits(const rl_conn *c, const rl_lock_op *op, rl_send_form form, int prefixed);

/* Appends "DELIFEQ key token" (preferred where the server has both) or
 * "DELEX key IFEQ token", then "EXISTS <key's queue>": two replies, the
 * second a trailing one (rl_native_judge_queue). 0 or RL_E_NOMEM. */
int rl_native_release_append(rl_conn *c, const rl_lock_op *op, int64_t now_us);

/* An error reply (len bytes) to an UNLOCK: 1 when it refuses the native
 * command itself (unknown, or NOPERM naming it: c stops using it, as
 * learned from now on until the socket closes) or is WRONGTYPE (this key
 * is another kind now): the release goes as the script. Else 0: the
 * node's own state (MOVED, TRYAGAIN, READONLY, ...), which the script
 * would meet too and the layers above act on. */
int rl_native_refused(rl_conn *c, const char *err, size_t len);

/* EXISTS's reply, after the delete said yes: out->value becomes
 * RL_RELEASE_WAKE_OWED when waiters are queued (or the reply says nothing
 * sure: the wake script looks for itself). Always RL_REPLY_YES: the key
 * is deleted. */
int rl_native_judge_queue(const void *reply, rl_result *out);

#endif
