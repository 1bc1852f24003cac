#include "rl_object.h"
#include "src/lock/rl_quorum.h"
#include "src/lock/rl_watchdog.h"
#include "src/base/rl_pid.h"
#include "src/base/rl_clock.h"
#include "php_redislock.h"
#include "rl_pool.h"
#include "rl_observe.h"
#include "rl_topology.h"
#include "rl_cluster.h"
#include "src/base/rl_status.h"
#include "rl_errors.h"
#include "zend_exceptions.h"

static void free_one_held(rl_held *h)
{
    if (h->watch) {
        rl_watch_remove(h->watch); /* released, or its object is gone: stop extending it */
    }
    zend_string_release(h->token);
    efree(h);
}

static void free_held(zval *zv)
{
    rl_held *h = Z_PTR_P(zv), *next;
    for (; h != NULL; h = next) {
        next = h->next;
        free_one_held(h);
    }
}

static zend_object_handlers handlers;

zend_object *rl_object_create(zend_class_entry *ce)
{
    rl_object *o = zend_object_alloc(sizeof(rl_object), ce);
    zend_object_std_init(&o->std, ce);
    object_properties_init(&o->std, ce);
    zend_hash_init(&o->held, 4, NULL, free_held, 0);
    ZVAL_UNDEF(&o->logger);
    o->std.handlers = &handlers;
    return &o->std;
}

static void link_live(rl_object *o)
{
    if (o->live) {
        return;
    }
    o->prev = NULL;
    o->next = RLG(live);
    if (o->next) {
        o->next->prev = o;
    }
    RLG(live) = o;
    o->live = true;
}

static void unlink_live(rl_object *o)
{
    if (!o->live) {
        return;
    }
    if (o->prev) {
        o->prev->next = o->next;
    } else {
        RLG(live) = o->next;
    }
    if (o->next) {
        o->next->prev = o->prev;
    }
    o->prev = o->next = NULL;
    o->live = false;
}

void rl_object_free(zend_object *obj)
{
    rl_object *o = rl_object_from(obj);
    size_t i;

    rl_object_release_all(o);
    unlink_live(o);
    zend_hash_destroy(&o->held);
    for (i = 0; i < o->n && !o->persistent; i++) {
        bool cluster = o->clusters && o->clusters[i];
        if ((o->groups == NULL || o->groups[i] == NULL) && !cluster) {
            rl_conn_free(o->conns[i]);
        }
        if (o->wait_conns && !cluster) { /* a cluster's are its own */
            rl_conn_free(o->wait_conns[i]);
        }
    }
    for (i = 0; i < o->n && o->clusters; i++) {
        rl_cluster_free(o->clusters[i]);
    }
    if (o->clusters) {
        efree(o->clusters);
    }
    for (i = 0; i < o->n && o->groups; i++) {
        rl_group_free(o->groups[i], o->persistent);
    }
    if (o->groups) {
        efree(o->groups);
    }
    if (o->conns) {
        efree(o->conns);
    }
    if (o->wait_conns) {
        efree(o->wait_conns);
    }
    if (o->prefix) {
        zend_string_release(o->prefix);
    }
    zval_ptr_dtor(&o->logger);
    zend_object_std_dtor(obj);
}

bool rl_object_construct_begin(rl_object *o)
{
    if (o->state != RL_STATE_NEW) {
        /* php-src's wording and class (Error) for the same refusal */
        zend_throw_error(NULL, "Cannot call constructor twice");
        return false;
    }
    o->state = RL_STATE_CONSTRUCTING;
    return true;
}

void rl_object_construct_end(rl_object *o)
{
    o->state = EG(exception) ? RL_STATE_FAILED : RL_STATE_READY;
}

rl_object *rl_object_ready(zval *this_zv)
{
    rl_object *o = Z_RL_OBJ_P(this_zv);
    const char *why;

    switch (o->state) {
    case RL_STATE_READY:
        return o;
    case RL_STATE_CONSTRUCTING:
        why = "its constructor has not finished";
        break;
    case RL_STATE_FAILED:
        why = "its constructor failed";
        break;
    default:
        why = "its constructor was not called";
        break;
    }
    zend_throw_error(NULL, "%s object is not initialized: %s", ZSTR_VAL(Z_OBJCE_P(this_zv)->name), why);
    return NULL;
}

void rl_object_log(rl_object *o, const char *level, const char *event, zend_string *key, zval *context)
{
    zval empty;
    if (Z_TYPE(o->logger) == IS_UNDEF || (EG(flags) & EG_FLAGS_IN_SHUTDOWN)) {
        if (context) {
            zval_ptr_dtor(context);
        }
        return;
    }
    if (context == NULL) {
        array_init(&empty);
        context = &empty;
    }
    rl_log(&o->logger, level, event, key, ZSTR_LEN(o->prefix), context);
    zval_ptr_dtor(context);
}

/* get_gc handler: the logger may hold a reference back to the object. */
static HashTable *get_gc(zend_object *obj, zval **table, int *n)
{
    rl_object *o = rl_object_from(obj);
    *table = Z_TYPE(o->logger) == IS_UNDEF ? NULL : &o->logger;
    *n = *table ? 1 : 0;
    return zend_std_get_properties(obj);
}

void rl_object_init_handlers(void)
{
    memcpy(&handlers, zend_get_std_object_handlers(), sizeof handlers);
    handlers.offset = offsetof(rl_object, std);
    handlers.free_obj = rl_object_free;
    handlers.get_gc = get_gc;
    handlers.clone_obj = NULL;
}

/* A RedLock listing one node twice has no independent quorum (and two
 * votes would share one socket): refuse it, naming both elements. */
static zend_result same_node_as_earlier(rl_object *o, const rl_endpoint *ep, size_t i, uint32_t argnum)
{
    size_t j;
    for (j = 0; j < i; j++) {
        if (rl_endpoint_same_node(&o->conns[j]->ep, ep)) {
            zend_argument_value_error(argnum, "element %zu is the same Redis node as element %zu (%s): "
                                      "a quorum needs independent nodes", i, j, o->conns[j]->name);
            return FAILURE;
        }
    }
    return SUCCESS;
}

zend_result rl_object_setup(rl_object *o, rl_settings *s, zval *servers, size_t n,
                            uint32_t argnum, bool is_list)
{
    size_t i;

    o->persistent = s->persistent;
    o->auto_release = s->auto_release;
    o->reentrant = s->reentrant;
    o->fencing = s->fencing;
    o->auto_extend = s->auto_extend;
    o->max_hold_us = (int64_t)(s->max_hold * 1e6);
    o->timeouts.connect_us = (int64_t)(s->connect_timeout * 1e6);
    o->timeouts.reply_us = (int64_t)(s->timeout * 1e6);
    o->drift_factor = s->drift_factor;
    o->min_replicas = (int)s->min_replicas;
    o->replica_timeout_ms = (long long)(s->replica_timeout * 1000.0 + 0.5);
    o->prefix = zend_string_copy(s->prefix);
    ZVAL_COPY(&o->logger, &s->logger);
    o->conns = ecalloc(n, sizeof *o->conns);
    for (i = 0; i < n; i++) {
        rl_endpoint ep;
        char what[40];
        zval *server = is_list ? zend_hash_index_find(Z_ARRVAL_P(servers), (zend_ulong)i) : servers;

        if (server == NULL) {
            zend_argument_value_error(argnum, "must be a list (keys 0, 1, 2, ...)");
            return FAILURE;
        }
        what[0] = '\0';
        if (is_list) {
            snprintf(what, sizeof what, "element %zu ", i);
        }
        if (rl_cluster_is_form(server)) {
            rl_cgroup *g = rl_cluster_new(server, s, o->persistent, argnum, what);
            if (g == NULL) {
                return FAILURE;
            }
            if (o->clusters == NULL) {
                o->clusters = ecalloc(n, sizeof *o->clusters);
            }
            o->clusters[i] = g;
            o->conns[i] = rl_cluster_placeholder(g);
            o->n = i + 1;
            if (o->groups) {
                zend_argument_value_error(argnum, "must not mix sentinel groups and clusters");
                return FAILURE;
            }
            continue;
        }
        if (rl_topology_is_group(server)) {
            rl_sgroup *g = rl_group_new(server, s, o->persistent, argnum, what);
            if (g == NULL) {
                return FAILURE;
            }
            if (o->groups == NULL) {
                o->groups = ecalloc(n, sizeof *o->groups);
            }
            o->groups[i] = g;
            if (o->clusters) {
                o->conns[i] = rl_group_placeholder(g);
                o->n = i + 1;
                zend_argument_value_error(argnum, "must not mix sentinel groups and clusters");
                return FAILURE;
            }
            for (size_t j = 0; j < i; j++) {
                if (o->groups[j] && rl_group_same(o->groups[j], g)) {
                    /* set up as node i first, so that it is freed with the object */
                    o->conns[i] = rl_group_placeholder(g);
                    o->n = i + 1;
                    zend_argument_value_error(argnum, "element %zu is the same sentinel group as element %zu "
                                              "(service and a sentinel in common): a quorum needs independent "
                                              "nodes", i, j);
                    return FAILURE;
                }
            }
            o->conns[i] = rl_group_placeholder(g);
            o->n = i + 1;
            continue;
        }
        if (rl_endpoint_from_zval(&ep, server, s, argnum, what) == FAILURE) {
            return FAILURE;
        }
        if (same_node_as_earlier(o, &ep, i, argnum) == FAILURE) {
            rl_endpoint_clear(&ep);
            return FAILURE;
        }
        o->conns[i] = o->persistent ? rl_pool_get(&ep, RL_ROLE_COMMAND) : rl_conn_new(&ep, RL_ROLE_COMMAND);
        rl_endpoint_clear(&ep);
        if (o->conns[i] == NULL) {
            rl_throw_status(RL_E_NOMEM, "out of memory");
            return FAILURE;
        }
        o->n = i + 1;
    }
    o->quorum = rl_quorum_of(n);
    return SUCCESS;
}

zend_string *rl_object_key(rl_object *o, zend_string *resource, uint32_t argnum)
{
    if (ZSTR_LEN(resource) == 0) {
        zend_argument_value_error(argnum, "must not be empty");
        return NULL;
    }
    return zend_string_concat2(ZSTR_VAL(o->prefix), ZSTR_LEN(o->prefix),
                               ZSTR_VAL(resource), ZSTR_LEN(resource));
}

bool rl_object_wait_conns(rl_object *o)
{
    size_t i;
    if (o->wait_conns) {
        return true;
    }
    o->wait_conns = ecalloc(o->n, sizeof *o->wait_conns);
    for (i = 0; i < o->n; i++) {
        const rl_endpoint *ep = &o->conns[i]->ep;
        if (o->clusters && o->clusters[i]) { /* the wait connection of the node last routed to */
            rl_conn *w = rl_cluster_wait_conn(o->clusters[i], o->conns[i]);
            o->wait_conns[i] = w ? w : o->conns[i];
            continue;
        }
        o->wait_conns[i] = o->persistent ? rl_pool_get(ep, RL_ROLE_WAIT) : rl_conn_new(ep, RL_ROLE_WAIT);
        if (o->wait_conns[i] == NULL) {
            rl_throw_status(RL_E_NOMEM, "out of memory");
            return false;
        }
    }
    return true;
}

/* rl_object_run() for an object with cluster nodes: each is pointed at the
 * master of op's key first, and follows redirections after. */
static size_t run_on_clusters(rl_object *o, const rl_op *op, rl_vote *votes, size_t need, int early,
                              const rl_timeouts *t)
{
    rl_vote stack[8], *sub = o->n <= 8 ? stack : ecalloc(o->n, sizeof *sub);
    int fstack[8], *failed = o->n <= 8 ? fstack : ecalloc(o->n, sizeof *failed);
    char err[RL_ERRLEN];
    size_t i, k = 0, yes = 0;

    for (i = 0; i < o->n; i++) {
        failed[i] = o->clusters[i] ? rl_cluster_route(o, i, op->key, op->key_len, err, sizeof err) : 0;
        if (failed[i]) {
            memset(&votes[i], 0, sizeof votes[i]);
            votes[i].conn = o->conns[i];
            votes[i].status = failed[i];
            snprintf(votes[i].err, sizeof votes[i].err, "%s", err);
            continue;
        }
        sub[k++].conn = o->conns[i];
    }
    if (k == o->n) { /* every node routed (the usual case): no copies */
        for (i = 0; i < o->n; i++) {
            votes[i].conn = sub[i].conn;
        }
        rl_fanout(op, votes, o->n, need, early, t);
    } else if (k > 0) {
        rl_fanout(op, sub, k, need, early, t);
        for (i = 0, k = 0; i < o->n; i++) {
            if (!failed[i]) {
                votes[i] = sub[k++];
            }
        }
    }
    for (i = 0; i < o->n; i++) {
        if (!failed[i] && o->clusters[i]) {
            rl_cluster_follow(o, i, op, &votes[i], t);
        }
        yes += votes[i].status == RL_OK && votes[i].yes;
    }
    if (sub != stack) {
        efree(sub);
    }
    if (failed != fstack) {
        efree(failed);
    }
    return yes;
}

size_t rl_object_run(rl_object *o, const rl_op *op, rl_vote *votes, size_t need, int early)
{
    rl_op with_ack = *op;
    rl_timeouts t = o->timeouts;
    size_t i;

    with_ack.min_replicas = o->min_replicas;
    with_ack.replica_timeout_ms = o->replica_timeout_ms;
    if (rl_op_wants_ack(&with_ack)) {
        t.reply_us += with_ack.replica_timeout_ms * 1000; /* WAIT may take that long after the command's reply */
    }
    if (o->groups) {
        return rl_topology_run(o, &with_ack, votes, need, early, &t);
    }
    if (o->clusters) {
        return run_on_clusters(o, &with_ack, votes, need, early, &t);
    }
    for (i = 0; i < o->n; i++) {
        votes[i].conn = o->conns[i];
    }
    return rl_fanout(&with_ack, votes, o->n, need, early, &t);
}

rl_held *rl_held_find(rl_object *o, zend_string *key)
{
    return zend_hash_find_ptr(&o->held, key);
}

rl_held *rl_held_find_token(rl_object *o, zend_string *key, zend_string *token)
{
    rl_held *h = rl_held_find(o, key);
    while (h != NULL && !zend_string_equals(h->token, token)) {
        h = h->next;
    }
    return h;
}

/* Unlinks token's record of key from its chain and frees it; the key's
 * entry goes with its last record. */
static void unlink_token(rl_object *o, zend_string *key, zend_string *token)
{
    zval *zv = zend_hash_find(&o->held, key);
    rl_held **at, *h;
    if (zv == NULL) {
        return;
    }
    for (at = (rl_held **)&Z_PTR_P(zv); (h = *at) != NULL; at = &h->next) {
        if (zend_string_equals(h->token, token)) {
            *at = h->next;
            free_one_held(h);
            break;
        }
    }
    if (Z_PTR_P(zv) == NULL) {
        zend_hash_del(&o->held, key);
    }
}

int rl_held_mode_of(rl_object *o, zend_string *key, const char *token, size_t len)
{
    rl_held *h;
    for (h = rl_held_find(o, key); h != NULL; h = h->next) {
        if (ZSTR_LEN(h->token) == len && memcmp(ZSTR_VAL(h->token), token, len) == 0) {
            return h->pid == rl_pid() ? h->mode : -1;
        }
    }
    return -1;
}

/* Frees the records whose validity ran out (not the watchdog's: it keeps
 * their validity) of this process. A lock taken and never released, or
 * released by another process (Laravel's restoreLock(), forceUnlock()),
 * would otherwise keep its record for the object's life: one per owner
 * with option reentrant false. Run when more records were added than the
 * last sweep left, so its cost per acquisition stays constant. */
static void sweep_expired(rl_object *o)
{
    int64_t now = rl_now_us();
    zend_string *key;
    zval *zv;
    rl_held **at, *h;

    ZEND_HASH_FOREACH_STR_KEY_VAL(&o->held, key, zv) {
        (void)key;
        for (at = (rl_held **)&Z_PTR_P(zv); (h = *at) != NULL;) {
            if (h->watch == 0 && h->pid == rl_pid() && h->valid_until_us < now) {
                *at = h->next;
                free_one_held(h);
            } else {
                at = &h->next;
            }
        }
        if (Z_PTR_P(zv) == NULL) {
            zend_hash_del(&o->held, key); /* allowed while iterating (Zend marks the bucket) */
        }
    } ZEND_HASH_FOREACH_END();
    o->held_adds = 0;
    o->held_kept = zend_hash_num_elements(&o->held);
}

rl_held *rl_held_add(rl_object *o, zend_string *key, zend_string *token, int64_t valid_until_us)
{
    rl_held *h;
    if (++o->held_adds > 64 && o->held_adds > o->held_kept) {
        sweep_expired(o);
    }
    h = emalloc(sizeof *h);
    h->token = zend_string_copy(token);
    h->count = 1;
    h->pid = rl_pid();
    h->valid_until_us = valid_until_us;
    h->fence = 0;
    h->mode = RL_MODE_EXCLUSIVE;
    h->watch = 0;
    h->lost_logged = false;
    h->next = NULL;
    if (o->reentrant) {
        zend_hash_update_ptr(&o->held, key, h);
    } else {
        zval *zv;
        unlink_token(o, key, token); /* taken again by its owner: one record */
        zv = zend_hash_find(&o->held, key);
        if (zv != NULL) {
            h->next = Z_PTR_P(zv); /* set in place: an update would free the chain */
            Z_PTR_P(zv) = h;
        } else {
            zend_hash_add_new_ptr(&o->held, key, h);
        }
    }
    if (o->auto_release) {
        link_live(o);
    }
    return h;
}

void rl_held_remove(rl_object *o, zend_string *key)
{
    zend_hash_del(&o->held, key);
    if (zend_hash_num_elements(&o->held) == 0) {
        unlink_live(o);
    }
}

void rl_held_remove_token(rl_object *o, zend_string *key, zend_string *token)
{
    if (o->reentrant) {
        rl_held *h = rl_held_find(o, key);
        if (h != NULL && zend_string_equals(h->token, token)) {
            rl_held_remove(o, key);
        }
        return;
    }
    unlink_token(o, key, token);
    if (zend_hash_num_elements(&o->held) == 0) {
        unlink_live(o);
    }
}

void rl_object_release_all(rl_object *o)
{
    zend_string *key;
    rl_held *h;
    rl_vote stack_votes[8];
    /* malloc, not emalloc: this also runs after a memory-limit fatal error */
    rl_vote *votes = o->n <= 8 ? stack_votes : calloc(o->n, sizeof *votes);

    if (o->auto_release && votes != NULL) {
        ZEND_HASH_FOREACH_STR_KEY_PTR(&o->held, key, h) {
            for (; h != NULL; h = h->next) { /* every owner's, with option reentrant false */
                rl_op op = {.kind = RL_OP_UNLOCK, .key = ZSTR_VAL(key), .key_len = ZSTR_LEN(key),
                             .token = ZSTR_VAL(h->token), .token_len = ZSTR_LEN(h->token)};
                if (h->pid != rl_pid()) {
                    continue;
                }
                if (rl_object_run(o, &op, votes, o->quorum, 0) >= o->quorum) {
                    RL_COUNT(released);
                    RL_COUNT(auto_released);
                    rl_object_log(o, "info", "auto-released", key, NULL);
                } else {
                    RL_COUNT(expired);
                }
            }
        } ZEND_HASH_FOREACH_END();
    }
    if (votes != stack_votes) {
        free(votes);
    }
    zend_hash_clean(&o->held);
    unlink_live(o);
}

void rl_release_live_objects(void)
{
    while (RLG(live)) {
        rl_object_release_all(RLG(live));
    }
}
