#include "rl_object_lock.h"
#include "rl_object_wait.h"
#include "src/base/rl_pid.h"
#include "rl_class_errors.h"
#include "rl_object_on_lost.h"
#include "php_redislock.h"
#include "src/base/rl_clock.h"
#include "src/lock/rl_acquire.h"
#include "src/lock/rl_hold.h"
#include "src/lock/rl_wait.h"
#include "src/lock/rl_deadlock.h"
#include "src/lock/rl_watchdog.h"
#include "src/base/rl_status.h"
#include <stdlib.h>
#include "src/base/rl_token.h"
#include "rl_method_inspect.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"
#include <string.h>

/* The lock protocol itself is plain C in src/lock (rl_acquire.c,
 * rl_wait.c, rl_hold.c): it returns outcomes and votes. This file turns
 * PHP values into its operations, keeps the held records, and acts on what
 * it returns: counters, log events, exceptions, the watchdog. */

/* The node set of the protocol (src/lock/rl_node_set.h) over the object's
 * nodes. Every use of rl_object's node fields is here (elsewhere the
 * number of nodes and the quorum are a tally's), so that the node side can
 * change behind this adapter. */
static size_t nodes_run(void *ctx, const rl_lock_op *op, rl_vote *votes, size_t need, int early)
{
    return rl_object_run(ctx, op, votes, need, early);
}

/* NULL, with an exception thrown, when out of memory. */
static rl_conn *nodes_wait_conn(void *ctx, size_t i, const char *key, size_t key_len)
{
    return rl_object_wait_conn(ctx, i, key, key_len);
}

static size_t nodes_wait(void *ctx, const rl_lock_op *op, rl_vote *votes, const rl_timeouts *t)
{
    return rl_object_wait(ctx, op, votes, t);
}

void rl_lock_nodes_of(rl_object *o, rl_lock_nodes *ns)
{
    memset(ns, 0, sizeof *ns);
    ns->n = o->n;
    ns->quorum = o->quorum;
    ns->run = nodes_run;
    ns->wait_conn = nodes_wait_conn;
    ns->wait = nodes_wait;
    ns->ctx = o;
    ns->fanout = rl_fanout;
    ns->now_us = rl_now_us;
    ns->sleep_until_us = rl_sleep_until_us;
    ns->timeouts = o->timeouts;
    ns->drift_factor = o->drift_factor;
    ns->redlock = o->redlock;
    ns->fencing = o->fencing;
}

/* A failure of the protocol itself (no memory, no random bytes), unless
 * an exception says it already (the adapter's). */
int rl_lock_fail_status(int status)
{
    if (!EG(exception)) {
        rl_throw_status(status, status == RL_E_RANDOM ? "cannot read random bytes for a token" : "out of memory");
    }
    return -1;
}

/* Logger context: elapsed ms, and the nodes' votes as "host:port" => "yes",
 * "no" or the error. */
static void context_of(const rl_tally *t, int64_t start_us, zval *ctx)
{
    zval nodes;
    size_t i;

    array_init(ctx);
    add_assoc_double(ctx, "ms", (double)(rl_now_us() - start_us) / 1000.0);
    array_init(&nodes);
    for (i = 0; i < t->n; i++) {
        rl_vote *v = &t->votes[i];
        add_assoc_string(&nodes, v->conn->name,
                         v->err.code != RL_OK ? v->err.msg
                         : v->one_key
                             ? "yes, on the lock key alone: its Cluster slot is being migrated, waiters not woken"
                         : v->yes ? "yes"
                                  : "no");
    }
    add_assoc_zval(ctx, "nodes", &nodes);
}

/* Logs event with the votes as context (and a token hint when token is set). */
void rl_lock_log_votes(rl_object *o, const rl_tally *t, int64_t start_us, const char *level, const char *event,
                       zend_string *key, const char *token)
{
    zval ctx;
    if (Z_TYPE(o->logger) == IS_UNDEF) {
        return;
    }
    context_of(t, start_us, &ctx);
    if (token != NULL) {
        /* a token's first 8 characters: enough to tell locks apart in a log, not to use one */
        char hint[12];
        snprintf(hint, sizeof hint, "%.8s...", token);
        add_assoc_string(&ctx, "token", hint);
    }
    rl_object_log(o, level, event, key, &ctx);
}

/* Fewer than a quorum of nodes could answer: log it, then throw naming
 * each node that failed (a logger's own exception becomes the previous). */
int rl_lock_fail_no_quorum(rl_object *o, const rl_tally *t, zend_string *key, int64_t start_us)
{
    RL_COUNT(failed);
    rl_lock_log_votes(o, t, start_us, "error", "failed", key, NULL);
    rl_throw_nodes(t->votes, t->n, t->quorum);
    return -1;
}

/* Re-entrant acquire: the TTL is refreshed first, so a hold that already
 * expired is never counted. */
static int refresh(rl_object *o, rl_held *h, zend_string *key, zend_long ttl_ms)
{
    zend_string *token = zend_string_copy(h->token);
    int r = rl_lock_extend(o, key, token, ttl_ms);
    zend_string_release(token);
    return r;
}

/* auto_extend: hands a won lock to the watchdog, on the nodes the votes
 * went to (a sentinel group's master, a cluster slot's master); without it,
 * on_lost: a timer of its validity only. false, with an exception, when the
 * watchdog cannot take it. */
bool rl_lock_watch(rl_object *o, const rl_tally *t, const rl_lock_op *op, rl_held *h)
{
    const rl_endpoint *stack[RL_STACK_VOTES], **eps = t->n <= RL_STACK_VOTES ? stack : ecalloc(t->n, sizeof *eps);
    rl_watch_spec spec;
    size_t i;

    for (i = 0; i < t->n; i++) {
        eps[i] = &t->votes[i].conn->ep;
    }
    memset(&spec, 0, sizeof spec);
    spec.eps = eps;
    spec.n = o->auto_extend ? t->n : 0;
    spec.timer_only = !o->auto_extend;
    spec.quorum = t->quorum;
    spec.key = op->key;
    spec.key_len = op->key_len;
    spec.token = op->token;
    spec.token_len = op->token_len;
    spec.ttl_ms = op->ttl_ms;
    spec.mode = op->mode == RL_MODE_SHARED ? RL_MODE_SHARED : RL_MODE_EXCLUSIVE;
    spec.drift_factor = o->drift_factor;
    spec.drift = o->redlock;
    spec.timeouts = o->timeouts;
    spec.min_replicas = o->min_replicas;
    spec.replica_timeout_ms = o->replica_timeout_ms;
    spec.valid_until_us = h->valid_until_us;
    spec.max_hold_us = o->max_hold_us;
    spec.owner = RL_THREAD_OWNER; /* this thread's request clears it at its end */
    if (Z_TYPE(o->on_lost) != IS_UNDEF) {
        rl_on_lost_watch(&spec);
    }
    h->watch = rl_watch_add(&spec);
    if (eps != stack) {
        efree(eps);
    }
    if (h->watch == 0) {
        rl_throw_status(RL_E_NOMEM, "cannot start the watchdog thread for auto_extend or on_lost");
        return false;
    }
    return true;
}

/* Is op's token already this process's lock on key (rl_attempt_run()'s
 * ours_before)? The held records are ext's: the fact is passed in. */
static int ours_before(rl_object *o, zend_string *key, const rl_lock_op *op)
{
    if (op->refuse_own) {
        return 0; /* a yes is a new acquisition, a record of the token's stale */
    }
    return rl_held_mode_of(o, key, op->token, op->token_len) >= 0;
}

/* Acts on an attempt the protocol made: a won lock is recorded (and handed
 * to the watchdog) before a logger that may throw is called, so that
 * auto-release covers it; then the counters and log events. */
static int report_attempt(rl_object *o, zend_string *key, const rl_lock_op *op, const rl_attempt *a,
                          zend_string **token_out, bool after_wait)
{
    int r = 0;

    if (a->outcome == RL_WON) {
        *token_out = zend_string_init(op->token, op->token_len, 0);
        rl_held *h = rl_held_add(o, key, *token_out, a->until_us);
        h->fence = a->fence;
        h->mode = op->mode;
        h->after_wait = after_wait;
        if (rl_object_watched(o) && !rl_lock_watch(o, &a->tally, op, h)) {
            return -1; /* held and recorded: auto-release, or the caller's release, has it */
        }
        RL_COUNT(acquired);
        RL_COUNT_ADD(acquired_shared, op->mode == RL_MODE_SHARED);
        RL_COUNT_ADD(acquired_permits, op->mode == RL_MODE_PERMIT);
        r = 1;
        rl_lock_log_votes(o, &a->tally, a->start_us, "info",
                          op->mode == RL_MODE_SHARED   ? "acquired_shared"
                          : op->mode == RL_MODE_PERMIT ? "acquired_permit"
                                                       : "acquired",
                          key, op->token);
    }
    if (a->outcome == RL_NO_QUORUM) {
        r = rl_lock_fail_no_quorum(o, &a->tally, key, a->start_us);
    }
    if (a->late) {
        /* won, but the validity was over when the replies came: taken back */
        RL_COUNT(late_grants);
        rl_lock_log_votes(o, &a->tally, a->start_us, "warning", "late", key, NULL);
    } else if (a->contended) {
        RL_COUNT(contended);
        rl_lock_log_votes(o, &a->tally, a->start_us, "debug", "contended", key, NULL);
    }
    /* a logger that threw: the lock state is already consistent (a won lock
     * is recorded, so auto-release covers it); the caller sees the exception */
    return EG(exception) ? -1 : r;
}

/* One quorum attempt with op (LOCK, with a fresh token or the owner's). A
 * call's first attempt that finds the lock held counts as contended. */
static int attempt(rl_object *o, zend_string *key, const rl_lock_op *op, zend_string **token_out, bool first)
{
    rl_lock_nodes ns;
    rl_attempt a;
    int r;

    rl_lock_nodes_of(o, &ns);
    if (rl_attempt_run(&ns, op, ours_before(o, key, op), first, &a) != 0) {
        return rl_lock_fail_status(RL_E_NOMEM);
    }
    r = report_attempt(o, key, op, &a, token_out, false);
    rl_attempt_free(&a);
    return r;
}

const rl_kind rl_kind_exclusive = {.mode = RL_MODE_EXCLUSIVE};

static const char *kind_name(int mode)
{
    return mode == RL_MODE_SHARED ? "a shared lock" : mode == RL_MODE_PERMIT ? "a permit" : "a lock";
}

int rl_lock_try(rl_object *o, zend_string *key, const rl_kind *kind, zend_long ttl_ms, zend_string **token_out,
                bool first)
{
    char token[RL_NAMED_TOKEN_MAX + 1], name[RL_HOLDER_NAME_MAX + 1];
    rl_lock_op op = {.kind = RL_OP_LOCK,
                     .key = ZSTR_VAL(key),
                     .key_len = ZSTR_LEN(key),
                     .token = token,
                     .token_len = RL_TOKEN_LEN,
                     .ttl_ms = ttl_ms};
    rl_held *h = rl_held_find(o, key);
    int r;

    /* kind->refuse_own: a lock() naming a token finds that token's lock
     * held, as SET NX does (no re-entry, no refresh, no promotion) */
    bool refuse_own = kind->refuse_own; /* set only with an owner (rl_method_lock) */
    if (kind->owner != NULL) {
        /* the caller names the token: a lock that holds it is that owner's,
         * whoever took it, so the acquire is the form that takes our own
         * token as ours (and refreshes it), not SET NX; with option
         * refresh_own false it is SET NX, as Laravel's locks are */
        op.token = ZSTR_VAL(kind->owner);
        op.token_len = ZSTR_LEN(kind->owner);
        op.repeat = !refuse_own;
        op.refuse_own = refuse_own;
        op.promote = kind->mode == RL_MODE_EXCLUSIVE && !refuse_own; /* its own shared lock, alone: made a lock */
    }
    op.fencing = o->fencing && kind->mode == RL_MODE_EXCLUSIVE;
    op.mode = kind->mode;
    op.limit = kind->limit;
    *token_out = NULL;
    if (!o->reentrant || refuse_own) {
        h = NULL; /* every lock() asks Redis: the owner's own token refreshes (or is held), another conflicts */
    }
    if (h != NULL && h->pid == rl_pid() && h->mode != kind->mode
        && !(h->mode == RL_MODE_EXCLUSIVE && kind->mode == RL_MODE_SHARED)) {
        /* a shared holder taking the lock would wait for itself */
        rl_throw_status(RL_E_KIND, "\"%s\" is held by this object as %s, not as %s: release it first", ZSTR_VAL(key),
                        kind_name(h->mode), kind_name(kind->mode));
        return -1;
    }
    /* re-entrant: the same object, and the same owner when one is named */
    if (h != NULL && h->pid == rl_pid() && (kind->owner == NULL || zend_string_equals(h->token, kind->owner))) {
        r = refresh(o, h, key, ttl_ms);
        if (r != 0) {
            if (r == 1) {
                h->count++;
                *token_out = zend_string_copy(h->token);
            }
            return r;
        }
        rl_held_remove(o, key); /* expired while held: no longer ours */
    }
    if (kind->owner == NULL
        && (op.token_len = rl_token_named(token, name, o->holder_names ? rl_holder_name(name, sizeof name) : 0)) == 0) {
        rl_throw_status(RL_E_RANDOM, "cannot read random bytes for a token");
        return -1;
    }
    return attempt(o, key, &op, token_out, first);
}

/* rl_wait_run()'s hooks: each attempt of the wait is acted on as one of
 * rl_lock_try() (the protocol returns, and ext records, counts and logs). */
typedef struct wait_call {
    rl_object *o;
    zend_string *key;
    zend_string **token_out;
    zend_string **result_out; /* NULL: not wanted */
    bool contended;           /* found held: a win now is a handoff */
} wait_call;

static void wait_result(void *ctx, char *value, size_t len)
{
    wait_call *w = ctx;
    if (w->result_out != NULL && *w->result_out == NULL) {
        *w->result_out = zend_string_init(value, len, 0);
    }
    free(value);
}

static int wait_ours_before(void *ctx, const rl_lock_op *op)
{
    wait_call *w = ctx;
    return ours_before(w->o, w->key, op);
}

static int wait_attempted(void *ctx, const rl_lock_op *op, const rl_attempt *a)
{
    wait_call *w = ctx;
    if (a->outcome == RL_WON && w->contended) {
        rl_metrics_count(RL_M_HANDOFFS, 1);
    }
    if (a->outcome == RL_LOST && !a->late && !w->contended) {
        /* a guard's waiter queues with its first script (no try before
         * it): its first lost attempt is the call's contention */
        w->contended = true;
        RL_COUNT(contended);
    }
    return report_attempt(w->o, w->key, op, a, w->token_out, a->outcome == RL_WON && w->contended);
}

int rl_lock_wait(rl_object *o, zend_string *key, const rl_kind *kind, zend_long ttl_ms, int64_t deadline_us,
                 zend_string **token_out, zend_string **result_out)
{
    rl_lock_op like = {.kind = RL_OP_LOCK_WAIT,
                       .key = ZSTR_VAL(key),
                       .key_len = ZSTR_LEN(key),
                       .ttl_ms = ttl_ms,
                       .fencing = o->fencing && kind->mode == RL_MODE_EXCLUSIVE,
                       .mode = kind->mode,
                       .limit = kind->limit,
                       .guard = kind->guard};
    wait_call call = {o, key, token_out, result_out, false};
    rl_wait_hooks hooks
        = {.ours_before = wait_ours_before, .attempted = wait_attempted, .ctx = &call, .result = wait_result};
    rl_lock_nodes ns;
    /* A waiting promotion (its own shared lock to a lock) is not woken: a
     * release wakes nobody while a shared holder (itself) stays. */
    bool promoting = kind->owner != NULL && kind->mode == RL_MODE_EXCLUSIVE && !kind->refuse_own
                     && rl_held_mode_of(o, key, ZSTR_VAL(kind->owner), ZSTR_LEN(kind->owner)) == RL_MODE_SHARED;
    /* a guard queues with its first script (the waiters of a stampede send
     * two commands, not three), unless re-entrant: the try counts that */
    bool queue_first = kind->guard && rl_held_find(o, key) == NULL && rl_now_us() < deadline_us;
    int r = 0, status;

    *token_out = NULL;
    if (result_out != NULL) {
        *result_out = NULL;
    }
    if (!queue_first) {
        r = rl_lock_try(o, key, kind, ttl_ms, token_out, true);
    }

    if (kind->owner != NULL) {
        like.token = ZSTR_VAL(kind->owner);
        like.token_len = ZSTR_LEN(kind->owner);
        like.refuse_own = kind->refuse_own;
        like.promote = kind->mode == RL_MODE_EXCLUSIVE && !like.refuse_own;
    }
    if (r != 0) {
        return r;
    }
    if (EG(exception) || rl_now_us() >= deadline_us) {
        return EG(exception) ? -1 : 0;
    }
    char name[RL_HOLDER_NAME_MAX + 1];
    if (o->holder_names && kind->owner == NULL) {
        like.holder = name;
        like.holder_len = rl_holder_name(name, sizeof name);
    }
    rl_lock_nodes_of(o, &ns);
    call.contended = !queue_first; /* the try found it held */
    int64_t start_us = rl_now_us();
    /* a lock's waiter looks for a cycle of waits (a guard's waiters wait
     * for work, not for a lock: none) */
    r = rl_lock_wait_traced(o, &ns, &like, deadline_us, promoting, &hooks,
                            kind->mode == RL_MODE_EXCLUSIVE && !kind->guard, &status);
    if (call.contended) {
        rl_metrics_observe(RL_H_WAITED, rl_now_us() - start_us);
    }
    return status != 0 ? rl_lock_fail_status(status) : r;
}

/* The lock this process holds on key with token (NULL: its newest), with
 * its validity brought up to date from the watchdog (a lost one: validity
 * 0, and the logger told once), or NULL. */
static rl_held *held_now(rl_object *o, zend_string *key, zend_string *token)
{
    rl_held *h = token != NULL ? rl_held_find_token(o, key, token) : rl_held_find(o, key);
    int64_t until;
    if (h == NULL || h->pid != rl_pid()) {
        return NULL;
    }
    if (h->watch && o->auto_extend) { /* (on_lost's timer alone knows no more than h) */
        int state = rl_watch_state(h->watch, &until);
        if (state == RL_WATCH_ACTIVE || state == RL_WATCH_CAPPED) {
            h->valid_until_us = until;
        } else if (state == RL_WATCH_LOST) {
            h->valid_until_us = 0;
            if (!h->lost_logged) {
                h->lost_logged = true;
                RL_COUNT(lost);
                rl_object_log(o, "warning", "lost", key, NULL);
                /* the logger may have released it (h freed): look again */
                h = token != NULL ? rl_held_find_token(o, key, token) : rl_held_find(o, key);
                return h != NULL && h->pid == rl_pid() ? h : NULL;
            }
        }
    }
    return h;
}

/* Runs a release (op) on the object's nodes: 1 or 0 as a quorum said, or
 * -1 with an exception thrown (out of memory; no quorum: v freed then). */
static int release_run(rl_object *o, zend_string *key, const rl_lock_op *op, rl_verdict *v)
{
    rl_lock_nodes ns;
    int r;

    rl_lock_nodes_of(o, &ns);
    if (rl_release_run(&ns, op, v) != 0) {
        return rl_lock_fail_status(RL_E_NOMEM);
    }
    if (v->outcome != RL_NO_QUORUM) {
        return v->outcome == RL_WON;
    }
    r = rl_lock_fail_no_quorum(o, &v->tally, key, v->start_us);
    rl_verdict_free(v);
    return r;
}

static int release_as(rl_object *o, zend_string *key, zend_string *token, bool done, zend_string *result)
{
    rl_held *h = held_now(o, key, token);
    rl_lock_op op = {.kind = RL_OP_UNLOCK,
                     .key = ZSTR_VAL(key),
                     .key_len = ZSTR_LEN(key),
                     .token = ZSTR_VAL(token),
                     .token_len = ZSTR_LEN(token),
                     .done = done,
                     .value = result != NULL ? ZSTR_VAL(result) : NULL,
                     .value_len = result != NULL ? ZSTR_LEN(result) : 0};
    bool ours = h != NULL && zend_string_equals(h->token, token);
    /* the native release may do (src/lock/rl_native.h), unless the lock
     * came after a wait: then others are likely queued, and the script
     * wakes the next in its one round trip where the native release would
     * need a second (bench/native_handoff.php) */
    op.plain = ours && h->mode == RL_MODE_EXCLUSIVE && !h->after_wait;
    /* the watchdog could not keep it: no longer ours, whatever Redis says
     * now (the release is still sent: the key may be ours still) */
    bool lost = ours && h->watch && h->lost_logged;
    rl_verdict v;
    int r;

    if (ours && h->count > 1 && !lost) {
        h->count--; /* re-entrant: the key goes at the last release */
        return 1;
    }
    int64_t taken_us = ours ? h->taken_us : 0;
    if ((r = release_run(o, key, &op, &v)) < 0) {
        return -1;
    }
    r = r && !lost;
    if (ours) {
        rl_held_remove_token(o, key, token);
    }
    if (lost) {
        /* told as "lost" already */
    } else if (r == 1) {
        RL_COUNT(released);
        if (ours) {
            rl_metrics_observe(RL_H_HELD, rl_now_us() - taken_us);
        }
        /* a release on the lock key alone woke no waiter there: a warning */
        rl_lock_log_votes(o, &v.tally, v.start_us, v.one_key ? "warning" : "info", "released", key, ZSTR_VAL(token));
    } else if (ours) {
        RL_COUNT(expired); /* held it, but its TTL ran out first */
        rl_lock_log_votes(o, &v.tally, v.start_us, "warning", "expired", key, ZSTR_VAL(token));
    }
    rl_verdict_free(&v);
    return EG(exception) ? -1 : r;
}

int rl_lock_release(rl_object *o, zend_string *key, zend_string *token)
{
    return release_as(o, key, token, false, NULL);
}

int rl_lock_release_done(rl_object *o, zend_string *key, zend_string *token, zend_string *result)
{
    return release_as(o, key, token, true, result);
}

int rl_lock_extend(rl_object *o, zend_string *key, zend_string *token, zend_long ttl_ms)
{
    rl_lock_op op = {.kind = RL_OP_EXTEND,
                     .key = ZSTR_VAL(key),
                     .key_len = ZSTR_LEN(key),
                     .token = ZSTR_VAL(token),
                     .token_len = ZSTR_LEN(token),
                     .ttl_ms = ttl_ms};
    rl_held *h = rl_held_find_token(o, key, token);
    rl_lock_nodes ns;
    rl_verdict v;
    int r = 0;

    /* the shared form at once when this object holds it shared */
    op.mode = h != NULL && h->mode == RL_MODE_SHARED && zend_string_equals(h->token, token) ? RL_MODE_SHARED
                                                                                            : RL_MODE_EXCLUSIVE;
    rl_lock_nodes_of(o, &ns);
    if (rl_extend_run(&ns, &op, &v) != 0) {
        return rl_lock_fail_status(RL_E_NOMEM);
    }
    if (v.unacknowledged && h != NULL) {
        rl_held_remove_token(o, key, token); /* released where unacknowledged: not held any more */
        h = NULL;
    }
    if (v.outcome == RL_NO_QUORUM) {
        r = rl_lock_fail_no_quorum(o, &v.tally, key, v.start_us);
    } else if (v.outcome == RL_WON) {
        r = 1;
        rl_metrics_count(RL_M_EXTENDED, 1);
        if (h != NULL && zend_string_equals(h->token, token)) {
            h->valid_until_us = v.until_us;
            if (h->watch) { /* the watchdog goes on with this TTL; a lost lock is held again */
                rl_watch_renewed(h->watch, ttl_ms, v.until_us);
                h->lost_logged = false;
            }
        }
    }
    rl_verdict_free(&v);
    return r;
}

zend_long rl_lock_fence(rl_object *o, zend_string *key)
{
    rl_held *h = held_now(o, key, NULL);
    return h != NULL && h->valid_until_us > rl_now_us() ? (zend_long)h->fence : 0;
}

zend_long rl_lock_validity(rl_object *o, zend_string *key)
{
    rl_held *h = held_now(o, key, NULL);
    int64_t left;
    if (h == NULL) {
        return 0;
    }
    left = h->valid_until_us - rl_now_us();
    return left > 0 ? (zend_long)(left / 1000) : 0;
}

int rl_lock_holds(rl_object *o, zend_string *key, zend_string *token)
{
    /* no token: the script's '' asks whether anyone holds it */
    rl_lock_op op = {.kind = RL_OP_HOLDS,
                     .key = ZSTR_VAL(key),
                     .key_len = ZSTR_LEN(key),
                     .token = token ? ZSTR_VAL(token) : "",
                     .token_len = token ? ZSTR_LEN(token) : 0};
    rl_held *h = token ? rl_held_find_token(o, key, token) : NULL;
    rl_lock_nodes ns;
    rl_verdict v;
    int r;

    /* as for extend: the shared form at once when this object holds it shared */
    op.mode = h != NULL && h->mode == RL_MODE_SHARED ? RL_MODE_SHARED : RL_MODE_EXCLUSIVE;
    rl_lock_nodes_of(o, &ns);
    if (rl_holds_run(&ns, &op, &v) != 0) {
        return rl_lock_fail_status(RL_E_NOMEM);
    }
    r = v.outcome == RL_NO_QUORUM ? rl_lock_fail_no_quorum(o, &v.tally, key, v.start_us) : v.outcome == RL_WON;
    rl_verdict_free(&v);
    return r;
}

int rl_lock_force(rl_object *o, zend_string *key)
{
    rl_lock_op op = {.kind = RL_OP_UNLOCK, .key = ZSTR_VAL(key), .key_len = ZSTR_LEN(key), .token = "", .force = 1};
    rl_verdict v;
    int r;

    if (rl_held_find(o, key) != NULL) {
        rl_held_remove(o, key); /* whoever held it, this object does not any more */
    }
    if ((r = release_run(o, key, &op, &v)) < 0) {
        return -1;
    }
    if (r == 1) {
        RL_COUNT(released);
        rl_lock_log_votes(o, &v.tally, v.start_us, "warning", "force_released", key,
                          NULL); /* a one-key release shows in its votes */
    }
    rl_verdict_free(&v);
    return EG(exception) ? -1 : r;
}
