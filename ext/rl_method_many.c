/* lockMany() and unlockMany() (docs/api.md, "Several resources at once"):
 * every resource or none, by one script per node; a waiter queues at the
 * first resource held and is woken by its release. On a Cluster whose
 * resources span slots (no script can hold them), they are taken one by
 * one in a fixed order, and what was taken is released on a failure. */
#include "rl_method_many.h"
#include "rl_object_wait.h"
#include "rl_object_lock.h"
#include "rl_method_lock.h"
#include "rl_class_errors.h"
#include "rl_method_inspect.h"
#include "php_redislock.h"
#include "src/base/rl_clock.h"
#include "src/base/rl_pid.h"
#include "src/base/rl_status.h"
#include "src/base/rl_token.h"
#include "src/lock/rl_watchdog.h"
#include "src/lock/rl_acquire.h"
#include "src/lock/rl_hold.h"
#include "src/lock/rl_manyops.h"
#include "src/lock/rl_ordered.h"
#include "src/lock/rl_quorum.h"
#include "src/lock/rl_wait.h"
#include "src/lock/rl_deadlock.h"
#include "zend_exceptions.h"
#include <string.h>

/* The resources of a call as keys (prefixed), in byte order: the fixed
 * order of a Cluster's one-by-one path, and of every script's KEYS. */
typedef struct many {
    zend_string *keys[RL_MANY_MAX];
    const char *ptrs[RL_MANY_MAX];
    size_t lens[RL_MANY_MAX];
    size_t n;
} many;

static void many_free(many *m)
{
    while (m->n > 0) {
        zend_string_release(m->keys[--m->n]);
    }
}

static int key_order(const void *a, const void *b)
{
    const zend_string *x = *(zend_string *const *)a, *y = *(zend_string *const *)b;
    return zend_binary_strcmp(ZSTR_VAL(x), ZSTR_LEN(x), ZSTR_VAL(y), ZSTR_LEN(y));
}

/* $resources (argument argnum): 1 to RL_MANY_MAX distinct non-empty strings. */
static bool parse(rl_object *o, HashTable *ht, uint32_t argnum, many *m)
{
    zval *v;
    size_t i;

    m->n = 0;
    if (zend_hash_num_elements(ht) == 0 || zend_hash_num_elements(ht) > RL_MANY_MAX) {
        zend_argument_value_error(argnum, "must hold between 1 and %d resources", RL_MANY_MAX);
        return false;
    }
    ZEND_HASH_FOREACH_VAL(ht, v) {
        ZVAL_DEREF(v);
        if (Z_TYPE_P(v) != IS_STRING) {
            zend_argument_type_error(argnum, "must hold strings only, %s given", zend_zval_type_name(v));
            many_free(m);
            return false;
        }
        if ((m->keys[m->n] = rl_object_key(o, Z_STR_P(v), argnum)) == NULL) {
            many_free(m);
            return false;
        }
        m->n++;
    }
    ZEND_HASH_FOREACH_END();
    qsort(m->keys, m->n, sizeof m->keys[0], key_order);
    for (i = 0; i < m->n; i++) {
        if (i > 0 && zend_string_equals(m->keys[i], m->keys[i - 1])) {
            zend_argument_value_error(argnum, "must not name a resource twice (\"%s\")",
                                      ZSTR_VAL(m->keys[i]) + ZSTR_LEN(o->prefix));
            many_free(m);
            return false;
        }
        m->ptrs[i] = ZSTR_VAL(m->keys[i]);
        m->lens[i] = ZSTR_LEN(m->keys[i]);
    }
    return true;
}

/* A Cluster node among the object's, and resources in different slots. */
static bool spans_slots(const rl_object *o, const many *m)
{
    return rl_nodes_split_keys(o->nodes, o->n, m->ptrs, m->lens, m->n) != 0;
}

/* A resource this object holds now (Redis says so: a record whose lock
 * another released is dropped): lockMany() would wait for itself. */
static bool refuse_held(rl_object *o, const many *m)
{
    size_t i;
    for (i = 0; i < m->n; i++) {
        rl_held *h = rl_held_find(o, m->keys[i]);
        if (h == NULL || h->pid != rl_pid() || h->valid_until_us <= rl_now_us()) {
            continue;
        }
        zend_string *token = zend_string_copy(h->token);
        int r = rl_lock_holds(o, m->keys[i], token);
        if (r == 0) {
            rl_held_remove_token(o, m->keys[i], token);
        }
        zend_string_release(token);
        if (r != 0) {
            if (r > 0) {
                rl_throw_status(RL_E_KIND,
                                "\"%s\" is held by this object already: lockMany() takes resources it does not hold",
                                ZSTR_VAL(m->keys[i]) + ZSTR_LEN(o->prefix));
            }
            return true;
        }
    }
    return false;
}

typedef struct many_call {
    rl_object *o;
    const many *m;
    bool contended;
} many_call;

/* Acts on an attempt: a won one is recorded key by key (each then is a
 * lock of its own: unlock(), extend() and auto-release take it), handed to
 * the watchdog, counted and logged. 1 won, 0 not, -1 thrown. */
static int report(many_call *c, const rl_lock_op *op, const rl_attempt *a)
{
    rl_object *o = c->o;
    size_t i;

    if (a->outcome == RL_WON) {
        zend_string *token = zend_string_init(op->token, op->token_len, 0);
        rl_held *held[RL_MANY_MAX];
        for (i = 0; i < c->m->n; i++) { /* all recorded first: auto-release has them whatever follows */
            held[i] = rl_held_add(o, c->m->keys[i], token, a->until_us);
            RL_COUNT(acquired);
        }
        for (i = 0; i < c->m->n && rl_object_watched(o); i++) {
            rl_lock_op one = *op;
            one.kind = RL_OP_LOCK;
            one.key = c->m->ptrs[i];
            one.key_len = c->m->lens[i];
            one.nkeys = 0;
            if (!rl_lock_watch(o, &a->tally, &one, held[i])) {
                zend_string_release(token);
                return -1;
            }
        }
        zend_string_release(token);
        if (c->contended) {
            rl_metrics_count(RL_M_HANDOFFS, 1);
        }
        rl_lock_log_votes(o, &a->tally, a->start_us, "info", "acquired", c->m->keys[0], op->token);
        return EG(exception) ? -1 : 1;
    }
    if (a->outcome == RL_NO_QUORUM) {
        return rl_lock_fail_no_quorum(o, &a->tally, c->m->keys[0], a->start_us);
    }
    if (a->late) {
        RL_COUNT(late_grants);
        rl_lock_log_votes(o, &a->tally, a->start_us, "warning", "late", c->m->keys[0], NULL);
    } else if (!c->contended) {
        c->contended = true;
        RL_COUNT(contended);
        rl_lock_log_votes(o, &a->tally, a->start_us, "debug", "contended", c->m->keys[0], NULL);
    }
    return EG(exception) ? -1 : 0;
}

/* A lost attempt is taken back where it went out, unless the token is
 * the caller's: it may hold some of them from before (those it took on too
 * few nodes then live to their TTL). */
static int owner_ours(void *ctx, const rl_lock_op *op)
{
    (void)ctx;
    return op->repeat;
}

static int wait_attempted(void *ctx, const rl_lock_op *op, const rl_attempt *a)
{
    return report(ctx, op, a);
}

/* Every resource in one script per node: a try, then (with time left) a
 * wait woken at the release of the resource it queued at. */
static int take_together(rl_object *o, const many *m, zend_long ttl, int64_t deadline_us, const char *token,
                         size_t token_len, bool owner)
{
    /* an owner's token may hold some already (refreshed): the script's
     * form, safe to repeat, not MSETEX NX */
    rl_lock_op op = {.kind = RL_OP_LOCK_MANY,
                     .key = m->ptrs[0],
                     .key_len = m->lens[0],
                     .keys = m->ptrs,
                     .key_lens = m->lens,
                     .nkeys = m->n,
                     .token = token,
                     .token_len = token_len,
                     .ttl_ms = ttl,
                     .repeat = owner};
    many_call call = {o, m, false};
    rl_lock_nodes ns;
    rl_attempt a;
    int r, status;

    rl_lock_nodes_of(o, &ns);
    if (rl_attempt_run(&ns, &op, owner_ours(NULL, &op), 1, &a) != 0) {
        return rl_lock_fail_status(RL_E_NOMEM);
    }
    r = report(&call, &op, &a);
    rl_attempt_free(&a);
    if (r != 0 || rl_now_us() >= deadline_us) {
        return r;
    }
    rl_wait_hooks hooks = {.ours_before = owner_ours, .attempted = wait_attempted, .ctx = &call};
    int64_t start_us = rl_now_us();
    r = rl_lock_wait_traced(o, &ns, &op, deadline_us, 0, &hooks, true, &status);
    rl_metrics_observe(RL_H_WAITED, rl_now_us() - start_us);
    return status != 0 ? rl_lock_fail_status(status) : r;
}

/* The ordered take (src/lock/rl_ordered.c) on this object's held locks. */
typedef struct ordered_call {
    rl_object *o;
    const many *m;
    rl_kind kind;
    zend_long ttl;
    int64_t deadline_us;
    zend_string *token;
} ordered_call;

static int ordered_take(void *ctx, size_t i, int *got)
{
    ordered_call *c = ctx;
    zend_string *had = NULL;
    int r = rl_lock_wait(c->o, c->m->keys[i], &c->kind, c->ttl, c->deadline_us, &had, NULL);
    if (had != NULL) {
        *got = 1;
        zend_string_release(had);
    }
    return r;
}

static int ordered_validity(void *ctx, size_t i, int64_t *until_us)
{
    ordered_call *c = ctx;
    rl_held *h = rl_held_find_token(c->o, c->m->keys[i], c->token);
    if (h == NULL) {
        return 0;
    }
    *until_us = h->valid_until_us;
    return 1;
}

static void ordered_set_validity(void *ctx, size_t i, int64_t until_us)
{
    ordered_call *c = ctx;
    rl_held *h = rl_held_find_token(c->o, c->m->keys[i], c->token);
    if (h != NULL) {
        h->valid_until_us = until_us;
        if (h->watch && !c->o->auto_extend) { /* on_lost's timer: from this validity */
            rl_watch_renewed(h->watch, c->ttl, until_us);
        }
    }
}

static int ordered_extend(void *ctx, size_t i)
{
    ordered_call *c = ctx;
    return rl_lock_extend(c->o, c->m->keys[i], c->token, c->ttl);
}

static void ordered_release(void *ctx, size_t i)
{
    ordered_call *c = ctx;
    /* a wait's exception stays the call's; the release still logs */
    rl_release_beside_exception(c->o, c->m->keys[i], c->token);
}

static void ordered_forget(void *ctx, size_t i)
{
    ordered_call *c = ctx;
    rl_held_remove_token(c->o, c->m->keys[i], c->token);
}

static int ordered_failed(void *ctx)
{
    (void)ctx;
    return EG(exception) != NULL;
}

/* A Cluster's resources across slots, or locks with fencing numbers: one
 * by one in key order (rl_ordered.h). */
static int take_in_order(rl_object *o, const many *m, zend_long ttl, int64_t deadline_us, zend_string *token,
                         bool owner)
{
    /* its own locks refreshed, as one script does */
    ordered_call c = {.o = o,
                      .m = m,
                      .kind = {.mode = RL_MODE_EXCLUSIVE, .owner = token},
                      .ttl = ttl,
                      .deadline_us = deadline_us,
                      .token = token};
    rl_ordered t = {.n = m->n,
                    .owner = owner,
                    .deadline_us = deadline_us,
                    .take = ordered_take,
                    .validity = ordered_validity,
                    .set_validity = ordered_set_validity,
                    .extend = ordered_extend,
                    .release = ordered_release,
                    .forget = ordered_forget,
                    .failed = ordered_failed,
                    .now_us = rl_now_us,
                    .ctx = &c};
    return rl_ordered_take(&t);
}

void rl_method_lock_many(INTERNAL_FUNCTION_PARAMETERS)
{
    HashTable *resources;
    zend_long ttl;
    double wait = 0.0;
    zend_string *owner = NULL, *token;
    rl_object *o;
    many m = {.n = 0};
    char fresh[RL_NAMED_TOKEN_MAX + 1], name[RL_HOLDER_NAME_MAX + 1];
    int r;

    ZEND_PARSE_PARAMETERS_START(2, 4)
        Z_PARAM_ARRAY_HT(resources)
        Z_PARAM_LONG(ttl)
        Z_PARAM_OPTIONAL
        Z_PARAM_DOUBLE(wait)
        Z_PARAM_STR_OR_NULL(owner)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS)) || !rl_check_positive(ttl, 2, RL_MAX_TTL_MS) || !rl_check_wait(wait, 3)
        || !rl_check_owner(owner, 4) || !parse(o, resources, 1, &m)) {
        RETURN_THROWS();
    }
    if (refuse_held(o, &m)) {
        many_free(&m);
        RETURN_THROWS();
    }
    if (owner != NULL) {
        token = zend_string_copy(owner);
    } else {
        size_t len = rl_token_named(fresh, name, o->holder_names ? rl_holder_name(name, sizeof name) : 0);
        if (len == 0) {
            many_free(&m);
            rl_throw_status(RL_E_RANDOM, "cannot read random bytes for a token");
            RETURN_THROWS();
        }
        token = zend_string_init(fresh, len, 0);
    }
    int64_t deadline_us = rl_wait_deadline(wait);
    if (spans_slots(o, &m) || o->fencing) {
        /* no script holds them all (a Cluster's slots), or each is numbered
         * as lock() numbers it (with a RedLock's write-back): in order */
        r = take_in_order(o, &m, ttl, deadline_us, token, owner != NULL);
    } else {
        r = take_together(o, &m, ttl, deadline_us, ZSTR_VAL(token), ZSTR_LEN(token), owner != NULL);
    }
    many_free(&m);
    if (r != 1) {
        zend_string_release(token);
        if (r < 0) {
            RETURN_THROWS();
        }
        RETURN_NULL();
    }
    RETURN_STR(token);
}

/* Can the release go in one script per node: one slot, and no record of
 * these keys that a single release would only count down (a re-entrant
 * hold of the token) or that the watchdog lost? */
static bool releasable_together(rl_object *o, const many *m, zend_string *token)
{
    size_t i;
    if (spans_slots(o, m)) {
        return false;
    }
    for (i = 0; i < m->n; i++) {
        rl_held *h = rl_held_find_token(o, m->keys[i], token);
        if (h != NULL && h->pid == rl_pid() && (h->count > 1 || h->lost_logged)) {
            return false;
        }
    }
    return true;
}

/* One release script per node for every key: 1 when every one was
 * released, 0 not, -1 thrown. The records go as unlock()'s would. */
static int release_together(rl_object *o, const many *m, zend_string *token)
{
    rl_lock_op op = {.kind = RL_OP_UNLOCK_MANY,
                     .key = m->ptrs[0],
                     .key_len = m->lens[0],
                     .keys = m->ptrs,
                     .key_lens = m->lens,
                     .nkeys = m->n,
                     .token = ZSTR_VAL(token),
                     .token_len = ZSTR_LEN(token)};
    rl_lock_nodes ns;
    rl_verdict v;
    size_t i, released, ours = 0;
    int64_t held_us = 0;

    rl_lock_nodes_of(o, &ns);
    if (rl_release_run(&ns, &op, &v) != 0) {
        return rl_lock_fail_status(RL_E_NOMEM);
    }
    if (v.outcome == RL_NO_QUORUM) {
        int r = rl_lock_fail_no_quorum(o, &v.tally, m->keys[0], v.start_us);
        rl_verdict_free(&v);
        return r;
    }
    released = rl_quorum_count(v.tally.votes, v.tally.n, v.tally.quorum);
    for (i = 0; i < m->n; i++) {
        rl_held *h = rl_held_find_token(o, m->keys[i], token);
        if (h != NULL && h->pid == rl_pid()) {
            ours++;
            held_us = rl_now_us() - h->taken_us;
            rl_held_remove_token(o, m->keys[i], token);
        }
    }
    RL_COUNT_ADD(released, released);
    rl_metrics_count(RL_METRIC_OF_released, released);
    for (i = 0; i < ours; i++) {
        rl_metrics_observe(RL_H_HELD, held_us);
    }
    if (ours > released) { /* held them, but TTLs ran out first */
        RL_COUNT_ADD(expired, ours - released);
        rl_metrics_count(RL_METRIC_OF_expired, ours - released);
    }
    rl_lock_log_votes(o, &v.tally, v.start_us, released == m->n ? "info" : "warning",
                      released == m->n ? "released" : "expired", m->keys[0], ZSTR_VAL(token));
    rl_verdict_free(&v);
    return EG(exception) ? -1 : released == m->n;
}

void rl_method_unlock_many(INTERNAL_FUNCTION_PARAMETERS)
{
    HashTable *resources;
    zend_string *token;
    rl_object *o;
    many m = {.n = 0};
    size_t i;
    int r = 1;

    ZEND_PARSE_PARAMETERS_START(2, 2)
        Z_PARAM_ARRAY_HT(resources)
        Z_PARAM_STR(token)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS)) || !rl_check_token(token, 2) || !parse(o, resources, 1, &m)) {
        RETURN_THROWS();
    }
    if (releasable_together(o, &m, token)) {
        r = release_together(o, &m, token);
    } else {
        /* a Cluster's slots, or a hold unlock() only counts down: one by one */
        for (i = 0; i < m.n && !EG(exception); i++) {
            if (rl_lock_release(o, m.keys[i], token) != 1) {
                r = 0;
            }
        }
    }
    many_free(&m);
    if (r < 0 || EG(exception)) {
        RETURN_THROWS();
    }
    RETURN_BOOL(r == 1);
}
