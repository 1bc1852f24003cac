/* The wait loop and its recheck policy (rl_wait.h). */
#include "rl_wait.h"
#include "rl_lockops.h"
#include "../base/rl_status.h"
#include "../base/rl_token.h"
#include "rl_lock_state.h"
#include "rl_manyops.h"
#include "rl_deadlock.h"
#include "../base/rl_metrics.h"
#include <stdlib.h>
#include <string.h>

/* A wait connection reads wakes that may carry a stampede guard's result
 * (up to RL_ONCE_VALUE_MAX bytes in each of up to 64 entries; a lock()
 * waiter on the same resource reads them too): its reply bound is raised
 * to match. */
#define WAKE_MAX_REPLY (64 * (RL_ONCE_VALUE_MAX + 4096))

/* How long a guard's waiter told it is done by a look reads its wake
 * stream for the result (the entry is there already, unless trimmed). */
#define DONE_READ_US 5000

static void set_wake_limits(rl_conn *c)
{
    rl_reply_limits l;
    rl_reply_limits_default(&l);
    l.max_reply = WAKE_MAX_REPLY;
    rl_conn_set_limits(c, &l);
}

/* Hands the result a done wake carried (on the first node that has one)
 * to the hooks, and forgets the others'. */
static void hand_result(const rl_lock_nodes *ns, rl_tally *tally, const char *waiter, const rl_wait_hooks *hooks)
{
    size_t i, len;
    char *value;
    int handed = 0;
    for (i = 0; i < ns->n; i++) {
        if (tally->votes[i].conn != NULL
            && rl_wake_result_take(tally->votes[i].conn, waiter, RL_TOKEN_LEN, &value, &len)) {
            if (!handed && hooks->result != NULL) {
                hooks->result(hooks->ctx, value, len);
                handed = 1;
            } else {
                free(value);
            }
        }
    }
}

/* wait_for_wake(): the hooks stopped the wait (the logger threw). */
#define WAKE_STOPPED (-1000)
/* wait_for_wake(): the recheck was less than a millisecond away: nothing
 * was read (neither woken nor rechecked: not counted). */
#define NOT_READ (-1001)

static rl_wait_counts counts; /* every thread's: relaxed atomic additions */

void rl_wait_counts_get(rl_wait_counts *out)
{
    out->woken = __atomic_load_n(&counts.woken, __ATOMIC_RELAXED);
    out->rechecked = __atomic_load_n(&counts.rechecked, __ATOMIC_RELAXED);
    out->wake_errors = __atomic_load_n(&counts.wake_errors, __ATOMIC_RELAXED);
}

static void count(unsigned long long *field, rl_metric m)
{
    (void)__atomic_fetch_add(field, 1, __ATOMIC_RELAXED);
    rl_metrics_count(m, 1);
}

/* Blocks on the waiter's wake stream on every node (on its wait
 * connection where the key lives) until a release names this waiter or
 * until recheck_us, brought forward to NEXT_IN_LINE_US from now when a
 * release names it next in line; wakes naming other waiters are read and
 * blocked on again. A node whose read fails (after its redirections were
 * followed) is counted and told to the hooks, once per node in *told (the
 * wait's); the others block on. 1
 * woken, 2 woken as done (a guard's waiter: the holder's work is over), 0
 * not (recheck_us came), NOT_READ when recheck_us was too near to read
 * at all, -1 when no node could block, WAKE_STOPPED when
 * the hooks stopped the wait, or -RL_E_NOMEM when a wait connection cannot
 * be had. */
static int wait_for_wake(const rl_lock_nodes *ns, rl_tally *tally, const rl_lock_op *like, const char *waiter,
                         int64_t recheck_us, const rl_wait_hooks *hooks, uint64_t *told)
{
    rl_lock_op op = {.kind = RL_OP_WAKE_WAIT,
                     .key = like->key,
                     .key_len = like->key_len,
                     .waiter = waiter,
                     .waiter_len = RL_TOKEN_LEN,
                     .guard = like->guard};
    size_t i;
    int r = NOT_READ, stopped = 0;

    for (;;) {
        int64_t span = recheck_us - ns->now_us();
        rl_timeouts t = ns->timeouts;
        int again = 0, blocked = 0;
        if (span < 1000) {
            break;
        }
        op.wait_ms = span / 1000;
        t.reply_us += span;
        t.stop_at_us = recheck_us;
        for (i = 0; i < ns->n; i++) {
            rl_conn *c = ns->wait_conn(ns->ctx, i, like->key, like->key_len);
            if (c == NULL) {
                return -RL_E_NOMEM;
            }
            set_wake_limits(c);
            memset(&tally->votes[i], 0, sizeof tally->votes[i]);
        }
        r = ns->wait(ns->ctx, &op, tally->votes, &t) > 0;
        for (i = 0; i < ns->n; i++) {
            const rl_vote *v = &tally->votes[i];
            uint64_t bit = (uint64_t)1 << (i < 63 ? i : 63);
            if (v->err.code != RL_OK && v->err.code != RL_E_SKIPPED && !(*told & bit)) {
                /* once per node and wait: a node down is one failure, not
                 * one at every wake of the others */
                *told |= bit;
                count(&counts.wake_errors, RL_M_WAKE_ERRORS);
                if (hooks->wake_failed != NULL
                    && hooks->wake_failed(hooks->log_ctx, like->key, like->key_len, v) != 0) {
                    stopped = 1;
                }
            }
            blocked = blocked || v->err.code == RL_OK || v->err.code == RL_E_SKIPPED;
            again = again || v->err.code == RL_OK; /* read wakes of others, or timed out */
            if (r == 0 && v->err.code == RL_OK && v->value == RL_WAKE_NEXT
                && ns->now_us() + NEXT_IN_LINE_US < recheck_us) {
                recheck_us = ns->now_us() + NEXT_IN_LINE_US;
            }
        }
        if (stopped) {
            return WAKE_STOPPED;
        }
        if (r == 0 && !blocked) {
            r = -1; /* no node could block (a skipped one blocked until the recheck) */
        }
        if (r != 0 || !again) {
            break;
        }
    }
    for (i = 0; i < ns->n && r > 0; i++) {
        if (tally->votes[i].yes && tally->votes[i].value == RL_WAKE_DONE) {
            r = 2;
        }
    }
    if (r == 2) {
        hand_result(ns, tally, waiter, hooks);
    }
    return r;
}

/* Takes the waiter out of every node's queue, without waiting for replies. */
static void leave_queue(const rl_lock_nodes *ns, rl_tally *tally, const rl_lock_op *like, const char *waiter)
{
    rl_lock_op op = {.kind = RL_OP_LEAVE,
                     .key = like->key,
                     .key_len = like->key_len,
                     .waiter = waiter,
                     .waiter_len = RL_TOKEN_LEN};
    ns->run(ns->ctx, &op, tally->votes, 0, 1);
}

/* When to look again after a lost attempt at now: just after the holder's
 * TTL ends at pttl (ms; -1 unknown), whether or not its release wakes us,
 * and at most RECHECK_MAX_US (PROMOTE_RECHECK_US for a promotion) on; never
 * after the deadline. */
static int64_t recheck_at(int64_t now, long long pttl, int promoting, int64_t deadline_us)
{
    int64_t recheck = now + (promoting ? PROMOTE_RECHECK_US : RECHECK_MAX_US);
    if (pttl >= 0 && now + pttl * 1000 + 1000 < recheck) {
        recheck = now + pttl * 1000 + 1000;
    }
    return recheck > deadline_us ? deadline_us : recheck;
}

/* A node that queued the waiter told where its wake stream stood (the id
 * of its last entry, in the vote's result): the waiter's XREAD on that
 * node starts there, not at the stream's start, so that it does not read
 * the wakes of earlier waiters first (a hot lock's stream holds up to
 * about 64). Every wake for this waiter comes after that entry. */
static void start_wake_cursors(const rl_lock_nodes *ns, const rl_attempt *a, const rl_lock_op *op)
{
    size_t i;
    rl_conn *c;
    for (i = 0; i < ns->n; i++) {
        const rl_vote *v = &a->tally.votes[i];
        const char *rest = v->result.text, *holder;
        char id[RL_WAKE_ID_MAX];
        size_t at, holder_len;
        if (op->kind == RL_OP_LOCK_MANY && !rl_many_blocked(v->result.text, op->nkeys, &at, &rest)) {
            continue;
        }
        rl_queued_parse(rest, id, &holder, &holder_len);
        if (v->err.code == RL_OK && !v->yes && id[0] != '\0'
            && (c = ns->wait_conn(ns->ctx, i, op->kind == RL_OP_LOCK_MANY ? op->keys[at] : op->key,
                                  op->kind == RL_OP_LOCK_MANY ? op->key_lens[at] : op->key_len))
                   != NULL) {
            rl_wake_cursor_set(c, op->waiter, op->waiter_len, id);
        }
    }
}

/* The holder the first node that named one told (a lock's waiter, not a
 * lock of several: many_blocked() reads those), copied into holder
 * (RL_NAMED_TOKEN_MAX + 1 bytes); its length, 0 for none. */
static size_t holder_of(const rl_lock_nodes *ns, const rl_attempt *a, char *holder)
{
    size_t i, len;
    for (i = 0; i < ns->n; i++) {
        const rl_vote *v = &a->tally.votes[i];
        const char *h;
        char id[RL_WAKE_ID_MAX];
        if (v->err.code != RL_OK || v->yes || v->value == RL_PTTL_DONE) {
            continue;
        }
        rl_queued_parse(v->result.text, id, &h, &len);
        if (id[0] != '\0' && len > 0 && len <= RL_NAMED_TOKEN_MAX) {
            memcpy(holder, h, len);
            holder[len] = '\0';
            return len;
        }
    }
    return 0;
}

/* A lock of several resources: the keys the nodes queued the waiter at
 * (bits of *queued_at), and the first node's, the one it waits for (as
 * a key of op; -1: none said), with the holder that node named (into
 * holder, *holder_len; the same vote: a RedLock's nodes may queue it at
 * different keys, and those wake it at their next look). */
static void many_blocked(const rl_lock_nodes *ns, const rl_attempt *a, const rl_lock_op *op, uint64_t *queued_at,
                         long *wait_at, char *holder, size_t *holder_len)
{
    size_t i, at, len;
    const char *rest, *h;
    char id[RL_WAKE_ID_MAX];
    *wait_at = -1;
    for (i = 0; i < ns->n; i++) {
        const rl_vote *v = &a->tally.votes[i];
        if (v->err.code == RL_OK && !v->yes && rl_many_blocked(v->result.text, op->nkeys, &at, &rest)) {
            *queued_at |= (uint64_t)1 << at;
            if (*wait_at < 0) {
                *wait_at = (long)at;
                rl_queued_parse(rest, id, &h, &len);
                *holder_len = len <= RL_NAMED_TOKEN_MAX ? len : 0;
                memcpy(holder, h, *holder_len);
                holder[*holder_len] = '\0';
            }
        }
    }
}

/* One attempt of the loop, told to the hooks: 1, 0 or -1 as the hooks say,
 * 2 when a node said a guard's waiter is done (a done release took it off
 * the queue before it read its wake), or -RL_E_NOMEM; *pttl gets the
 * attempt's. */
/* What an attempt found: the holder's PTTL, where a lock of several
 * resources waits (and every key it was queued at), and the holder a
 * queueing attempt was told of. */
typedef struct look {
    long long pttl;
    uint64_t queued_at;
    long wait_at;
    char holder[RL_NAMED_TOKEN_MAX + 1];
    size_t holder_len;
} look;

static int attempt(const rl_lock_nodes *ns, const rl_lock_op *op, const rl_wait_hooks *hooks, look *l)
{
    rl_attempt a;
    int r;
    if (rl_attempt_run(ns, op, hooks->ours_before(hooks->ctx, op), 0, &a) != 0) {
        return -RL_E_NOMEM;
    }
    if (op->enqueue) {
        start_wake_cursors(ns, &a, op);
    }
    if (op->kind == RL_OP_LOCK_MANY) {
        many_blocked(ns, &a, op, &l->queued_at, &l->wait_at, l->holder, &l->holder_len);
    } else if (op->enqueue || op->deadlock != NULL) { /* every look of a traced wait names the holder */
        l->holder_len = holder_of(ns, &a, l->holder);
    }
    r = hooks->attempted(hooks->ctx, op, &a);
    l->pttl = a.pttl;
    if (r == 0 && a.done) {
        r = 2;
    }
    rl_attempt_free(&a);
    return r;
}

int rl_wait_run(const rl_lock_nodes *ns, const rl_lock_op *like, int64_t deadline_us, int promoting,
                const rl_wait_hooks *hooks, int *status)
{
    char waiter[RL_TOKEN_LEN + 1], token[RL_NAMED_TOKEN_MAX + 1];
    rl_lock_op op = *like;
    rl_tally wake;                            /* the wake waits' and the leave's votes */
    int queued = 0, r = 0, failed_reads = 0;  /* blocking reads failed in a row */
    uint64_t told = 0;                        /* nodes whose failed read was counted and told (bit 63: the 64th on) */
    look l = {.queued_at = 0, .wait_at = -1}; /* queued_at: a lock of several's keys queued at */

    *status = 0;
    op.kind = like->nkeys > 0 ? RL_OP_LOCK_MANY : RL_OP_LOCK_WAIT;
    op.waiter = waiter;
    op.waiter_len = RL_TOKEN_LEN;
    op.enqueue = 1;
    if (like->token == NULL) {
        op.token = token;
        op.token_len = RL_TOKEN_LEN;
    }
    if (rl_token_new(waiter) != 0) {
        *status = RL_E_RANDOM;
        return -1;
    }
    if (like->mode == RL_MODE_SHARED) {
        waiter[0] = 's'; /* a shared waiter: a shared holder coming in wakes it too (rl_scripts.c) */
    }
    if (rl_tally_init(&wake, ns) != 0) {
        *status = RL_E_NOMEM;
        return -1;
    }
    for (;;) {
        int64_t now = ns->now_us(), recheck;
        int woken;

        if (now >= deadline_us) {
            r = 0;
            break;
        }
        if (like->token == NULL /* a fresh token per attempt */
            && (op.token_len = rl_token_named(token, like->holder, like->holder != NULL ? like->holder_len : 0)) == 0) {
            *status = RL_E_RANDOM;
            r = -1;
            break;
        }
        op.wait_ms = (deadline_us - now + 999) / 1000;
        op.enqueue = op.enqueue || like->nkeys > 0; /* its script queues it where it waits now */
        r = attempt(ns, &op, hooks, &l);
        if (r == -RL_E_NOMEM) {
            *status = RL_E_NOMEM;
            r = -1;
            break;
        }
        queued = queued || op.enqueue; /* even when won: a RedLock node that said no queued us */
        if (r == 2) {
            /* told by a look, not by its wake: the done entry is in the
             * stream already; read it for the holder's result */
            int read = like->guard && hooks->result != NULL
                           ? wait_for_wake(ns, &wake, &op, waiter, ns->now_us() + DONE_READ_US, hooks, &told)
                           : 0;
            if (read == -RL_E_NOMEM || read == WAKE_STOPPED) {
                *status = read == WAKE_STOPPED ? 0 : RL_E_NOMEM;
                r = -1;
            }
            queued = ns->n > 1; /* off this node's queue; the others' may have missed the release */
            break;
        }
        if (r != 0) {
            break;
        }
        rl_lock_op at = op; /* the key it waits at */
        if (like->nkeys > 0 && l.wait_at >= 0) {
            at.key = like->keys[l.wait_at];
            at.key_len = like->key_lens[l.wait_at];
        }
        /* behind a holder: is it waiting, through others, for us? At every
         * look (the edge lives 3 s: a live waiter's is there) */
        if (like->deadlock != NULL && (like->nkeys == 0 || l.wait_at >= 0)
            && rl_deadlock_check(ns, like->deadlock, &wake, at.key, at.key_len, l.holder, l.holder_len,
                                 (deadline_us - ns->now_us()) / 1000)
                   == 1) {
            r = RL_WAIT_DEADLOCK;
            break;
        }
        /* a late grant taken back also took us off the queue (its script
         * queues only when it cannot grant): queue again */
        op.enqueue = l.pttl == RL_PTTL_TAKEN_BACK;
        recheck = recheck_at(ns->now_us(), l.pttl == RL_PTTL_TAKEN_BACK ? 0 : l.pttl, promoting, deadline_us);
        if (like->nkeys > 0 && l.wait_at < 0) {
            /* no node queued it (nothing to block on): look at recheck */
            ns->sleep_until_us(recheck);
            count(&counts.rechecked, RL_M_WAITS_RECHECKED);
            continue;
        }
        woken = wait_for_wake(ns, &wake, &at, waiter, recheck, hooks, &told);
        if (woken == -RL_E_NOMEM || woken == WAKE_STOPPED) {
            *status = woken == WAKE_STOPPED ? 0 : RL_E_NOMEM;
            r = -1;
            break;
        }
        if (woken == 2) {
            /* the holder's work is over: its release took us off every
             * queue it reached (one node: nothing to leave) */
            count(&counts.woken, RL_M_WAITS_WOKEN);
            r = 2;
            queued = queued && ns->n > 1;
            break;
        }
        if (woken == NOT_READ) {
            continue; /* the recheck is here: look */
        }
        if (woken < 0) {
            /* no node could block (counted and told): look again at once
             * (routed anew: a moved slot's read goes to its new master); a
             * second failure in a row waits for the recheck */
            if (++failed_reads > 1) {
                ns->sleep_until_us(recheck);
            }
            continue;
        }
        failed_reads = 0;
        if (woken) {
            count(&counts.woken, RL_M_WAITS_WOKEN);
            op.enqueue = 1; /* the release took us off the queue */
        } else {
            count(&counts.rechecked, RL_M_WAITS_RECHECKED);
        }
    }
    if (queued && like->nkeys == 0) {
        leave_queue(ns, &wake, &op, waiter);
    }
    for (size_t i = 0; i < like->nkeys; i++) {
        if (l.queued_at & ((uint64_t)1 << i)) {
            rl_lock_op at = op;
            at.key = like->keys[i];
            at.key_len = like->key_lens[i];
            leave_queue(ns, &wake, &at, waiter);
        }
    }
    if (like->deadlock != NULL) {
        rl_deadlock_end(ns, like->deadlock, &wake);
    }
    rl_tally_free(&wake);
    return r;
}
