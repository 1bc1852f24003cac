#include "rl_locking.h"
#include "src/base/rl_pid.h"
#include "rl_errors.h"
#include "php_redislock.h"
#include "src/base/rl_clock.h"
#include "src/lock/rl_quorum.h"
#include "src/lock/rl_watchdog.h"
#include "src/base/rl_status.h"
#include "src/base/rl_token.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"
#include <string.h>
#include <time.h>

#define MAX_STACK_VOTES 8

/* The votes of one operation on every node, and what they add up to. */
typedef struct rl_tally {
    rl_vote stack[MAX_STACK_VOTES];
    rl_vote *votes;
    rl_count count;
} rl_tally;

static void tally_init(rl_tally *t, rl_object *o)
{
    t->votes = o->n <= MAX_STACK_VOTES ? t->stack : ecalloc(o->n, sizeof(rl_vote));
}

static void tally_free(rl_tally *t)
{
    if (t->votes != t->stack) {
        efree(t->votes);
    }
}

static void run(rl_object *o, rl_tally *t, const rl_op *op, int early)
{
    /* need is the quorum also when every node is waited for: a node benched
     * after a timeout is asked only if the quorum cannot be had without it */
    rl_object_run(o, op, t->votes, o->quorum, early);
    rl_count_votes(&t->count, t->votes, o->n);
}

/* Logger context: elapsed ms, and the nodes' votes as "host:port" => "yes",
 * "no" or the error. */
static void context_of(rl_object *o, rl_tally *t, int64_t start_us, zval *ctx)
{
    zval nodes;
    size_t i;

    array_init(ctx);
    add_assoc_double(ctx, "ms", (double)(rl_now_us() - start_us) / 1000.0);
    array_init(&nodes);
    for (i = 0; i < o->n; i++) {
        rl_vote *v = &t->votes[i];
        add_assoc_string(&nodes, v->conn->name, v->status != RL_OK ? v->err
                         : v->one_key ? "yes, on the lock key alone: its Cluster slot is being migrated, waiters not woken"
                         : v->yes ? "yes" : "no");
    }
    add_assoc_zval(ctx, "nodes", &nodes);
}

/* Logs event with the votes as context (and a token hint when token is set). */
static void log_votes(rl_object *o, rl_tally *t, int64_t start_us, const char *level, const char *event,
                      zend_string *key, const char *token)
{
    zval ctx;
    if (Z_TYPE(o->logger) == IS_UNDEF) {
        return;
    }
    context_of(o, t, start_us, &ctx);
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
static int fail_no_quorum(rl_object *o, rl_tally *t, zend_string *key, int64_t start_us)
{
    RL_COUNT(failed);
    log_votes(o, t, start_us, "error", "failed", key, NULL);
    rl_throw_nodes(t->votes, o->n, o->quorum);
    return -1;
}

/* When a lock taken at start for ttl_ms stops being trusted, and whether it
 * was won. RedLock's drift allowance and validity check apply to RedLock.
 * RedisLock's single node has no drift, but a fresh grant (a new token)
 * whose reply came after its TTL ran out (a server or this process stopped
 * meanwhile) may already be someone else's lock: it counts as lost and is
 * taken back, never handed to the caller. A late reply for a token already
 * held (an extend, a re-entrant refresh, a demotion) is kept as won with
 * its validity over: the command took effect and the hold stays recorded,
 * reported honestly (getValidity() 0, no fencing number) until extended. */
static rl_outcome decide(rl_object *o, rl_tally *t, int64_t start_us, zend_long ttl_ms, int64_t *until,
                         bool fresh)
{
    *until = rl_valid_until(start_us, ttl_ms, o->drift_factor, o->redlock);
    return rl_decide(&t->count, o->redlock || fresh ? *until : 0, rl_now_us());
}

/* attempt()'s *pttl after a late fresh grant that was taken back: the
 * resource is free and the waiter off the queue; look again at once, queued. */
#define PTTL_TAKEN_BACK (-2)

/* Deletes our token (a compare-and-delete) on the nodes of t that pick
 * chooses, waiting for each; errors are not ours to report here: the
 * caller reports the operation. Returns how many nodes were asked. */
static size_t release_where(rl_object *o, const rl_tally *t, const rl_op *like, int (*pick)(const rl_vote *))
{
    rl_vote stack[MAX_STACK_VOTES];
    rl_vote *votes = o->n <= MAX_STACK_VOTES ? stack : ecalloc(o->n, sizeof(rl_vote));
    rl_op op = *like;
    size_t i, n = 0;

    op.kind = RL_OP_UNLOCK;
    for (i = 0; i < o->n; i++) {
        if (pick(&t->votes[i])) {
            votes[n++].conn = t->votes[i].conn; /* where the command went (a cluster's ASK: not o->conns[i]) */
        }
    }
    if (n > 0) {
        rl_fanout(&op, votes, n, 0, 0, &o->timeouts); /* 0: a benched node keeps its deferred undo */
    }
    if (votes != stack) {
        efree(votes);
    }
    return n;
}

/* A lost attempt: every node its command went out to (answered or not). */
static void undo(rl_object *o, const rl_tally *attempt, const rl_op *lock_op)
{
    release_where(o, attempt, lock_op, rl_needs_undo);
}

static int not_acknowledged(const rl_vote *v)
{
    return v->status == RL_E_REPLICAS;
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

/* Fencing on several nodes: each node counted the acquisition on its own
 * counter, and the number is the largest count among the yes voters. It
 * holds only once a quorum of nodes has a counter at least that high, so
 * that any later quorum meets one of them (docs/DESIGN.md): the number is
 * written back (raise-only) to every node whose count is below it, and the
 * acquisition counts when a quorum has it and validity is left. w (made
 * with tally_init) gets the acquisition's votes where a node already had
 * the number, the write-back's elsewhere; its outcome is returned. */
static rl_outcome fence_write_back(rl_object *o, const rl_tally *t, rl_tally *w, const rl_op *lock_op,
                                   long long fence, int64_t until)
{
    rl_vote stack[MAX_STACK_VOTES];
    rl_vote *sub = o->n <= MAX_STACK_VOTES ? stack : ecalloc(o->n, sizeof(rl_vote));
    rl_op op = *lock_op;
    size_t i, k = 0, have = 0;

    op.kind = RL_OP_FENCE_RAISE;
    op.fence = fence;
    for (i = 0; i < o->n; i++) {
        w->votes[i] = t->votes[i];
        if (rl_fence_needs_raise(&t->votes[i], fence)) {
            memset(&sub[k], 0, sizeof sub[k]);
            sub[k++].conn = t->votes[i].conn; /* where the lock went (a cluster's ASK: not o->conns[i]) */
        } else {
            have++;
        }
    }
    if (have < o->quorum && k > 0) {
        rl_fanout(&op, sub, k, o->quorum - have, 1, &o->timeouts);
        for (i = 0, k = 0; i < o->n; i++) {
            if (rl_fence_needs_raise(&t->votes[i], fence)) {
                w->votes[i] = sub[k++];
            }
        }
    }
    if (sub != stack) {
        efree(sub);
    }
    rl_count_votes(&w->count, w->votes, o->n);
    return rl_decide(&w->count, until, rl_now_us());
}

/* auto_extend: hands a won lock to the watchdog, on the nodes the votes
 * went to (a sentinel group's master, a cluster slot's master). false, with
 * an exception, when the watchdog cannot take it. */
static bool watch(rl_object *o, const rl_tally *t, const rl_op *op, rl_held *h)
{
    const rl_endpoint *stack[MAX_STACK_VOTES], **eps = o->n <= MAX_STACK_VOTES ? stack : ecalloc(o->n, sizeof *eps);
    rl_watch_spec spec;
    size_t i;

    for (i = 0; i < o->n; i++) {
        eps[i] = &t->votes[i].conn->ep;
    }
    memset(&spec, 0, sizeof spec);
    spec.eps = eps;
    spec.n = o->n;
    spec.quorum = o->quorum;
    spec.key = op->key;
    spec.key_len = op->key_len;
    spec.token = op->token;
    spec.token_len = op->token_len;
    spec.ttl_ms = op->ttl_ms;
    spec.mode = op->mode == RL_MODE_SHARED ? RL_MODE_SHARED : RL_MODE_EXCLUSIVE;
    spec.drift_factor = o->drift_factor;
    spec.drift = o->redlock;
    spec.timeouts = o->timeouts;
    spec.valid_until_us = h->valid_until_us;
    spec.max_hold_us = o->max_hold_us;
    spec.owner = RL_THREAD_OWNER; /* this thread's request clears it at its end */
    h->watch = rl_watch_add(&spec);
    if (eps != stack) {
        efree(eps);
    }
    if (h->watch == 0) {
        rl_throw_status(RL_E_NOMEM, "cannot start the watchdog thread for auto_extend");
        return false;
    }
    return true;
}

/* One quorum attempt with op (LOCK or LOCK_WAIT, with a fresh token). A
 * call's first attempt that finds the lock held counts as contended. */
static int attempt(rl_object *o, zend_string *key, const rl_op *op, zend_string **token_out, long long *pttl,
                   bool first)
{
    int64_t start = rl_now_us(), until;
    long long fence;
    rl_outcome outcome;
    rl_tally t;
    int r = 0;
    /* The token is already this process's lock here (an owner taking it
     * again, promoting its shared lock, demoting its lock): where a lost
     * attempt went through, the token still holds the resource, in the
     * same kind or a stricter one for writers; taking it back would drop a
     * hold the caller keeps. */
    bool ours_before = rl_held_mode_of(o, key, op->token, op->token_len) >= 0;
    bool late;

    tally_init(&t, o);
    run(o, &t, op, 1);
    outcome = decide(o, &t, start, op->ttl_ms, &until, !ours_before);
    late = outcome == RL_LOST && t.count.yes >= o->quorum && !ours_before;
    fence = outcome == RL_WON && o->fencing ? rl_fence_of(t.votes, o->n) : 0;
    if (fence > 0 && o->n > 1) {
        rl_tally w;
        tally_init(&w, o);
        outcome = fence_write_back(o, &t, &w, op, fence, until);
        if (outcome != RL_WON && !ours_before) {
            undo(o, &t, op);
        }
        if (outcome != RL_WON) {
            /* from here the write-back's votes tell what happened */
            memcpy(t.votes, w.votes, o->n * sizeof(rl_vote));
            t.count = w.count;
        }
        tally_free(&w);
    }
    if (outcome == RL_WON) {
        *token_out = zend_string_init(op->token, op->token_len, 0);
        rl_held *h = rl_held_add(o, key, *token_out, until);
        h->fence = fence;
        h->mode = op->mode;
        if (o->auto_extend && !watch(o, &t, op, h)) {
            tally_free(&t);
            return -1; /* held and recorded: auto-release, or the caller's release, has it */
        }
        RL_COUNT(acquired);
        RL_COUNT_ADD(acquired_shared, op->mode == RL_MODE_SHARED);
        RL_COUNT_ADD(acquired_permits, op->mode == RL_MODE_PERMIT);
        r = 1;
        log_votes(o, &t, start, "info", op->mode == RL_MODE_SHARED ? "acquired_shared"
                  : op->mode == RL_MODE_PERMIT ? "acquired_permit" : "acquired", key, op->token);
    } else if (rl_attempt_needs_undo(&t.count) && fence == 0 && !ours_before) {
        undo(o, &t, op); /* some node may hold our token: take it back */
    }
    if (outcome == RL_NO_QUORUM) {
        r = fail_no_quorum(o, &t, key, start);
    }
    if (late) {
        /* won, but the validity was over when the replies came: taken back above */
        RL_COUNT(late_grants);
        log_votes(o, &t, start, "warning", "late", key, NULL);
    } else if (outcome == RL_LOST && first) {
        RL_COUNT(contended);
        log_votes(o, &t, start, "debug", "contended", key, NULL);
    }
    if (pttl) {
        *pttl = late ? PTTL_TAKEN_BACK : rl_shortest_pttl(t.votes, o->n);
    }
    tally_free(&t);
    /* a logger that threw: the lock state is already consistent (a won lock
     * is recorded, so auto-release covers it); the caller sees the exception */
    return EG(exception) ? -1 : r;
}

const rl_kind rl_kind_exclusive = {RL_MODE_EXCLUSIVE, 0, NULL};

static const char *kind_name(int mode)
{
    return mode == RL_MODE_SHARED ? "a shared lock" : mode == RL_MODE_PERMIT ? "a permit" : "a lock";
}

int rl_lock_try(rl_object *o, zend_string *key, const rl_kind *kind, zend_long ttl_ms, zend_string **token_out,
                bool first)
{
    char token[RL_TOKEN_LEN + 1];
    rl_op op = {.kind = RL_OP_LOCK, .key = ZSTR_VAL(key), .key_len = ZSTR_LEN(key),
                 .token = token, .token_len = RL_TOKEN_LEN, .ttl_ms = ttl_ms};
    rl_held *h = rl_held_find(o, key);
    int r;

    if (kind->owner != NULL) {
        /* the caller names the token: a lock that holds it is that owner's,
         * whoever took it, so the acquire is the form that takes our own
         * token as ours (and refreshes it), not SET NX */
        op.token = ZSTR_VAL(kind->owner);
        op.token_len = ZSTR_LEN(kind->owner);
        op.repeat = 1;
        op.promote = kind->mode == RL_MODE_EXCLUSIVE; /* its own shared lock, alone: made a lock */
    }
    op.fencing = o->fencing && kind->mode == RL_MODE_EXCLUSIVE;
    op.mode = kind->mode;
    op.limit = kind->limit;
    *token_out = NULL;
    if (!o->reentrant) {
        h = NULL; /* every lock() asks Redis: the owner's own token refreshes, another conflicts */
    }
    if (h != NULL && h->pid == rl_pid() && h->mode != kind->mode
        && !(h->mode == RL_MODE_EXCLUSIVE && kind->mode == RL_MODE_SHARED)) {
        /* a shared holder taking the lock would wait for itself */
        rl_throw_status(RL_E_KIND, "\"%s\" is held by this object as %s, not as %s: release it first",
                        ZSTR_VAL(key), kind_name(h->mode), kind_name(kind->mode));
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
    if (kind->owner == NULL && rl_token_new(token) != 0) {
        rl_throw_status(RL_E_RANDOM, "cannot read random bytes for a token");
        return -1;
    }
    return attempt(o, key, &op, token_out, NULL, first);
}

/* Longest a waiter sleeps without looking (a waiter looks again anyway
 * when the holder's TTL ends, and when a release names it next in line:
 * see wait_for_wake()). It bounds what a wake-up lost to a dead waiter
 * costs when the waiter after it died too; it is also how often a waiter
 * asks Redis while a lock is held long (it was 200 ms: 5 scripts a second
 * per waiter, a poll). */
#define RECHECK_MAX_US 2000000

/* A waiter named next in line looks again this long after: the woken
 * waiter's reservation (200 ms) and a margin. If the woken one died, no
 * release will wake anyone: this look takes the lock. */
#define NEXT_IN_LINE_US 250000

/* How often a waiting promotion looks (see rl_lock_wait()). */
#define PROMOTE_RECHECK_US 200000

/* Blocks on the waiter's wake stream on every node (on a second connection
 * per node) until a release names this waiter or until recheck_us, brought
 * forward to NEXT_IN_LINE_US from now when a release names it next in line;
 * wakes naming other waiters are read and blocked on again. 1 woken, 0 not,
 * -1 when a node cannot block (an error reply). */
static int wait_for_wake(rl_object *o, zend_string *key, const char *waiter, int64_t recheck_us)
{
    rl_op op = {.kind = RL_OP_WAKE_WAIT, .key = ZSTR_VAL(key), .key_len = ZSTR_LEN(key),
                 .waiter = waiter, .waiter_len = RL_TOKEN_LEN};
    rl_tally tally;
    size_t i;
    int r = 0;

    tally_init(&tally, o);
    for (;;) {
        int64_t span = recheck_us - rl_now_us();
        rl_timeouts t = o->timeouts;
        if (span < 1000) {
            break;
        }
        op.wait_ms = span / 1000;
        t.reply_us += span;
        t.stop_at_us = recheck_us;
        for (i = 0; i < o->n && r == 0; i++) {
            memset(&tally.votes[i], 0, sizeof tally.votes[i]);
            tally.votes[i].conn = rl_object_wait_conn(o, i); /* where the node points now */
            r = tally.votes[i].conn == NULL ? -1 : 0;
        }
        if (r != 0) {
            break;
        }
        bool again = false;
        r = rl_fanout(&op, tally.votes, o->n, 1, 1, &t) > 0;
        for (i = 0; i < o->n && r == 0; i++) {
            if (tally.votes[i].status == RL_E_REPLY) {
                r = -1;
            }
            again = again || tally.votes[i].status == RL_OK; /* read wakes of others, or timed out */
            if (tally.votes[i].status == RL_OK && tally.votes[i].value == RL_WAKE_NEXT
                && rl_now_us() + NEXT_IN_LINE_US < recheck_us) {
                recheck_us = rl_now_us() + NEXT_IN_LINE_US;
            }
        }
        if (r != 0 || !again) {
            break;
        }
    }
    tally_free(&tally);
    return r;
}

/* Takes the waiter out of every node's queue, without waiting for replies. */
static void leave_queue(rl_object *o, zend_string *key, const char *waiter)
{
    rl_op op = {.kind = RL_OP_LEAVE, .key = ZSTR_VAL(key), .key_len = ZSTR_LEN(key),
                 .waiter = waiter, .waiter_len = RL_TOKEN_LEN};
    rl_tally t;
    tally_init(&t, o);
    rl_object_run(o, &op, t.votes, 0, 1);
    tally_free(&t);
}

static void sleep_until(int64_t until_us)
{
    int64_t left = until_us - rl_now_us();
    if (left > 0) {
        struct timespec ts = {left / 1000000, (long)(left % 1000000) * 1000};
        nanosleep(&ts, NULL);
    }
}


int rl_lock_wait(rl_object *o, zend_string *key, const rl_kind *kind, zend_long ttl_ms, int64_t deadline_us,
                 zend_string **token_out)
{
    char waiter[RL_TOKEN_LEN + 1], token[RL_TOKEN_LEN + 1];
    rl_op op = {.kind = RL_OP_LOCK_WAIT, .key = ZSTR_VAL(key), .key_len = ZSTR_LEN(key),
                .token = token, .token_len = RL_TOKEN_LEN, .ttl_ms = ttl_ms,
                .waiter = waiter, .waiter_len = RL_TOKEN_LEN, .enqueue = 1};
    bool queued = false;
    long long pttl;
    /* A waiting promotion (its own shared lock to a lock) is not woken: a
     * release wakes nobody while a shared holder (itself) stays. It looks
     * again as often as a waiter did before the next-in-line wake. */
    bool promoting = kind->owner != NULL && kind->mode == RL_MODE_EXCLUSIVE
                     && rl_held_mode_of(o, key, ZSTR_VAL(kind->owner), ZSTR_LEN(kind->owner)) == RL_MODE_SHARED;
    int r = rl_lock_try(o, key, kind, ttl_ms, token_out, true);

    op.fencing = o->fencing && kind->mode == RL_MODE_EXCLUSIVE;
    op.mode = kind->mode;
    op.limit = kind->limit;
    if (kind->owner != NULL) {
        op.token = ZSTR_VAL(kind->owner);
        op.token_len = ZSTR_LEN(kind->owner);
        op.promote = kind->mode == RL_MODE_EXCLUSIVE;
    }

    if (r != 0) {
        return r;
    }
    if (EG(exception) || rl_now_us() >= deadline_us) {
        return EG(exception) ? -1 : 0;
    }
    if (rl_token_new(waiter) != 0) {
        rl_throw_status(RL_E_RANDOM, "cannot read random bytes for a token");
        return -1;
    }
    if (kind->mode == RL_MODE_SHARED) {
        waiter[0] = 's'; /* a shared waiter: a shared holder coming in wakes it too (rl_scripts.c) */
    }
    for (;;) {
        int64_t now = rl_now_us(), recheck;
        int woken;

        if (now >= deadline_us) {
            r = 0;
            break;
        }
        if (kind->owner == NULL && rl_token_new(token) != 0) { /* a fresh token per attempt */
            rl_throw_status(RL_E_RANDOM, "cannot read random bytes for a token");
            r = -1;
            break;
        }
        op.wait_ms = (deadline_us - now + 999) / 1000;
        r = attempt(o, key, &op, token_out, &pttl, false);
        queued = queued || op.enqueue; /* even when won: a RedLock node that said no queued us */
        if (r != 0) {
            break;
        }
        /* a late grant taken back also took us off the queue (its script
         * queues only when it cannot grant): queue again */
        op.enqueue = pttl == PTTL_TAKEN_BACK;
        pttl = pttl == PTTL_TAKEN_BACK ? 0 : pttl;
        now = rl_now_us();
        /* The holder's TTL ends at pttl: look again just after, whether or
         * not its release wakes us. */
        recheck = now + (promoting ? PROMOTE_RECHECK_US : RECHECK_MAX_US);
        if (pttl >= 0 && now + pttl * 1000 + 1000 < recheck) {
            recheck = now + pttl * 1000 + 1000;
        }
        if (recheck > deadline_us) {
            recheck = deadline_us;
        }
        woken = wait_for_wake(o, key, waiter, recheck);
        if (woken < 0) {
            sleep_until(recheck); /* a node that cannot block: look at recheck */
        } else if (woken) {
            op.enqueue = 1; /* the release took us off the queue */
        }
    }
    if (queued) {
        leave_queue(o, key, waiter);
    }
    return r;
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
    if (h->watch) {
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

/* A Cluster node released on the lock key alone (its slot being migrated):
 * waiters were not woken, which the log says as a warning. */
static bool one_key_release(const rl_tally *t, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (t->votes[i].one_key) {
            return true;
        }
    }
    return false;
}

int rl_lock_release(rl_object *o, zend_string *key, zend_string *token)
{
    rl_held *h = held_now(o, key, token);
    rl_op op = {.kind = RL_OP_UNLOCK, .key = ZSTR_VAL(key), .key_len = ZSTR_LEN(key),
                 .token = ZSTR_VAL(token), .token_len = ZSTR_LEN(token)};
    bool ours = h != NULL && zend_string_equals(h->token, token);
    /* the watchdog could not keep it: no longer ours, whatever Redis says
     * now (the release is still sent: the key may be ours still) */
    bool lost = ours && h->watch && h->lost_logged;
    int64_t start = rl_now_us();
    rl_outcome outcome;
    rl_tally t;
    int r;

    if (ours && h->count > 1 && !lost) {
        h->count--; /* re-entrant: the key goes at the last release */
        return 1;
    }
    tally_init(&t, o);
    run(o, &t, &op, 0);
    outcome = rl_decide(&t.count, 0, 0);
    if (outcome == RL_NO_QUORUM) {
        r = fail_no_quorum(o, &t, key, start);
    } else {
        r = outcome == RL_WON && !lost;
        if (ours) {
            rl_held_remove_token(o, key, token);
        }
        if (lost) {
            /* told as "lost" already */
        } else if (r == 1) {
            RL_COUNT(released);
            log_votes(o, &t, start, one_key_release(&t, o->n) ? "warning" : "info", "released", key, ZSTR_VAL(token));
        } else if (ours) {
            RL_COUNT(expired); /* held it, but its TTL ran out first */
            log_votes(o, &t, start, "warning", "expired", key, ZSTR_VAL(token));
        }
    }
    tally_free(&t);
    return EG(exception) ? -1 : r;
}

/* An extend that too few replicas acknowledged (min_replicas) is not kept:
 * the lock is released on those nodes. Returns whether any was. */
static bool release_unacknowledged(rl_object *o, const rl_tally *t, const rl_op *extend_op)
{
    return release_where(o, t, extend_op, not_acknowledged) > 0;
}

int rl_lock_extend(rl_object *o, zend_string *key, zend_string *token, zend_long ttl_ms)
{
    rl_op op = {.kind = RL_OP_EXTEND, .key = ZSTR_VAL(key), .key_len = ZSTR_LEN(key),
                 .token = ZSTR_VAL(token), .token_len = ZSTR_LEN(token), .ttl_ms = ttl_ms};
    rl_held *h = rl_held_find_token(o, key, token);
    int64_t start = rl_now_us(), until;
    rl_outcome outcome;
    rl_tally t;
    int r = 0;

    /* a lock's extend has one key; a shared lock's needs its holders' key
     * too: sent so when this object holds it shared, else when a node says so */
    op.mode = h != NULL && h->mode == RL_MODE_SHARED && zend_string_equals(h->token, token)
              ? RL_MODE_SHARED : RL_MODE_EXCLUSIVE;
    tally_init(&t, o);
    run(o, &t, &op, 0);
    if (op.mode != RL_MODE_SHARED && rl_extend_wants_shared(t.votes, o->n)) {
        op.mode = RL_MODE_SHARED;
        run(o, &t, &op, 0);
    }
    outcome = decide(o, &t, start, ttl_ms, &until, false);
    if (outcome != RL_WON && release_unacknowledged(o, &t, &op) && h != NULL) {
        rl_held_remove_token(o, key, token);
        h = NULL;
    }
    if (outcome == RL_NO_QUORUM) {
        r = fail_no_quorum(o, &t, key, start);
    } else if (outcome == RL_WON) {
        r = 1;
        if (h != NULL && zend_string_equals(h->token, token)) {
            h->valid_until_us = until;
            if (h->watch) { /* the watchdog goes on with this TTL; a lost lock is held again */
                rl_watch_renewed(h->watch, ttl_ms, until);
                h->lost_logged = false;
            }
        }
    }
    tally_free(&t);
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
    rl_op op = {.kind = RL_OP_HOLDS, .key = ZSTR_VAL(key), .key_len = ZSTR_LEN(key),
                 .token = token ? ZSTR_VAL(token) : "", .token_len = token ? ZSTR_LEN(token) : 0};
    rl_held *h = token ? rl_held_find_token(o, key, token) : NULL;
    int64_t start = rl_now_us();
    rl_outcome outcome;
    rl_tally t;
    int r;

    /* as for extend: the shared holders' key only when it is a shared lock */
    op.mode = h != NULL && h->mode == RL_MODE_SHARED ? RL_MODE_SHARED : RL_MODE_EXCLUSIVE;
    tally_init(&t, o);
    run(o, &t, &op, 1);
    if (op.mode != RL_MODE_SHARED && rl_extend_wants_shared(t.votes, o->n)) {
        op.mode = RL_MODE_SHARED;
        run(o, &t, &op, 1);
    }
    outcome = rl_decide(&t.count, 0, 0);
    r = outcome == RL_NO_QUORUM ? fail_no_quorum(o, &t, key, start) : outcome == RL_WON;
    tally_free(&t);
    return r;
}

int rl_lock_force(rl_object *o, zend_string *key)
{
    rl_op op = {.kind = RL_OP_UNLOCK, .key = ZSTR_VAL(key), .key_len = ZSTR_LEN(key), .token = ""};
    int64_t start = rl_now_us();
    rl_outcome outcome;
    rl_tally t;
    int r;

    op.force = 1;
    if (rl_held_find(o, key) != NULL) {
        rl_held_remove(o, key); /* whoever held it, this object does not any more */
    }
    tally_init(&t, o);
    run(o, &t, &op, 0);
    outcome = rl_decide(&t.count, 0, 0);
    if (outcome == RL_NO_QUORUM) {
        r = fail_no_quorum(o, &t, key, start);
    } else {
        r = outcome == RL_WON;
        if (r == 1) {
            RL_COUNT(released);
            log_votes(o, &t, start, "warning", "force_released", key, NULL); /* a one-key release shows in its votes */
        }
    }
    tally_free(&t);
    return EG(exception) ? -1 : r;
}
