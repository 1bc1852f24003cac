#include "rl_object.h"
#include "rl_form_address.h"
#include "rl_module_fatal.h"
#include "src/lock/rl_quorum.h"
#include "src/lock/rl_watchdog.h"
#include "src/lock/rl_lockops.h"
#include "src/base/rl_pid.h"
#include "src/base/rl_clock.h"
#include "src/topology/rl_key_names.h"
#include "php_redislock.h"
#include "rl_pool.h"
#include "rl_module_observe.h"
#include "rl_form_sentinel.h"
#include "rl_form_cluster.h"
#include "src/base/rl_status.h"
#include "src/transport/rl_evict.h"
#include "rl_class_errors.h"
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
    ZVAL_UNDEF(&o->on_lost);
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
    for (i = 0; i < o->n; i++) {
        o->nodes[i]->ops->free(o->nodes[i]);
    }
    if (o->nodes) {
        efree(o->nodes);
    }
    if (o->prefix) {
        zend_string_release(o->prefix);
    }
    if (o->evict_pending) {
        zend_hash_destroy(o->evict_pending);
        FREE_HASHTABLE(o->evict_pending);
    }
    zval_ptr_dtor(&o->logger);
    zval_ptr_dtor(&o->on_lost);
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
    if (Z_TYPE(o->logger) == IS_UNDEF || (EG(flags) & EG_FLAGS_IN_SHUTDOWN) || rl_fatal_releasing()) {
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

void rl_object_evict_note(rl_object *o, const rl_vote *votes, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const rl_conn *c = votes[i].conn;
        int added = 0, tell;
        if (c == NULL || c->caps.evict != RL_EVICT_RISKY) {
            continue;
        }
        tell = rl_evict_seen(c->name, &added);
        if (added) {
            rl_metrics_count(RL_M_EVICTION_RISK_NODES, 1);
        }
        if (!tell || Z_TYPE(o->logger) == IS_UNDEF) {
            continue;
        }
        if (o->evict_pending == NULL) {
            ALLOC_HASHTABLE(o->evict_pending);
            zend_hash_init(o->evict_pending, 4, NULL, ZVAL_PTR_DTOR, 0);
        }
        zval policy;
        ZVAL_STRING(&policy, c->caps.evict_policy);
        zend_hash_str_update(o->evict_pending, c->name, strlen(c->name), &policy);
    }
}

void rl_object_after_call(zval *this_zv)
{
    HashTable *pending;
    zend_string *node;
    zval *policy;
    rl_object *o;

    if (this_zv == NULL || Z_TYPE_P(this_zv) != IS_OBJECT) {
        return;
    }
    o = Z_RL_OBJ_P(this_zv);
    if (o->evict_pending == NULL || EG(exception)) {
        return;
    }
    pending = o->evict_pending; /* taken first: the logger may call the object again */
    o->evict_pending = NULL;
    ZEND_HASH_FOREACH_STR_KEY_VAL(pending, node, policy) {
        if (node == NULL || EG(exception)) {
            break; /* the logger threw: those left are found again by a later call */
        }
        if (rl_evict_claim(ZSTR_VAL(node))) {
            zval context;
            array_init(&context);
            add_assoc_str(&context, "policy", zend_string_copy(Z_STR_P(policy)));
            rl_object_log_node(o, "warning", "eviction_policy", ZSTR_VAL(node), &context);
        }
    }
    ZEND_HASH_FOREACH_END();
    zend_hash_destroy(pending);
    FREE_HASHTABLE(pending);
}

void rl_object_log_node(rl_object *o, const char *level, const char *event, const char *node, zval *context)
{
    if (Z_TYPE(o->logger) != IS_UNDEF && !(EG(flags) & EG_FLAGS_IN_SHUTDOWN) && !rl_fatal_releasing()) {
        rl_log_node(&o->logger, level, event, node, context);
    }
    zval_ptr_dtor(context);
}

/* get_gc handler: the logger and the on_lost callable may hold a
 * reference back to the object. */
static HashTable *get_gc(zend_object *obj, zval **table, int *n)
{
    rl_object *o = rl_object_from(obj);
    zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
    zend_get_gc_buffer_add_zval(buf, &o->logger);
    zend_get_gc_buffer_add_zval(buf, &o->on_lost);
    zend_get_gc_buffer_use(buf, table, n);
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
 * votes would share one socket): node i is refused, naming both elements. */
static zend_result same_node_as_earlier(rl_object *o, size_t i, uint32_t argnum)
{
    rl_node *node = o->nodes[i];
    size_t j;
    for (j = 0; j < i; j++) {
        if (o->nodes[j]->ops != node->ops || !node->ops->same(o->nodes[j], node)) {
            continue;
        }
        if (node->ops->same_because == NULL) {
            zend_argument_value_error(argnum,
                                      "element %zu is the same Redis node as element %zu (%s): "
                                      "a quorum needs independent nodes",
                                      i, j, o->nodes[j]->conn->name);
        } else {
            zend_argument_value_error(argnum,
                                      "element %zu is the same %s as element %zu (%s): a quorum "
                                      "needs independent nodes",
                                      i, node->ops->kind, j, node->ops->same_because);
        }
        return FAILURE;
    }
    return SUCCESS;
}

/* Server i (one of the forms) as a node. NULL, with an exception thrown,
 * when it is not a valid one or memory ran out. */
static rl_node *node_of(rl_object *o, zval *server, const rl_settings *s, uint32_t argnum, const char *what)
{
    const rl_conn_source *conns = o->persistent ? &rl_pool_conns : &rl_own_conns;
    rl_endpoint ep;
    rl_node *node;

    if (rl_cluster_is_form(server)) {
        node = rl_cluster_from_zval(server, s, conns, argnum, what);
    } else if (rl_sentinel_is_form(server)) {
        node = rl_sentinel_from_zval(server, s, conns, argnum, what);
    } else if (rl_endpoint_from_zval(&ep, server, s, argnum, what) == FAILURE) {
        return NULL;
    } else {
        node = rl_direct_node_new(&ep, conns);
        rl_endpoint_clear(&ep);
    }
    if (node == NULL && !EG(exception)) {
        rl_throw_status(RL_E_NOMEM, "out of memory");
    }
    return node;
}

zend_result rl_object_setup(rl_object *o, rl_settings *s, zval *servers, size_t n, uint32_t argnum, bool is_list)
{
    bool sentinels = false, clusters = false;
    size_t i;

    o->persistent = s->persistent;
    o->auto_release = s->auto_release;
    o->reentrant = s->reentrant;
    o->refresh_own = s->refresh_own;
    o->deadlock_detection = s->deadlock_detection;
    o->fencing = s->fencing;
    o->holder_names = s->holder_names;
    o->auto_extend = s->auto_extend;
    o->max_hold_us = (int64_t)(s->max_hold * 1e6);
    o->timeouts.connect_us = (int64_t)(s->connect_timeout * 1e6);
    o->timeouts.reply_us = (int64_t)(s->timeout * 1e6);
    o->drift_factor = s->drift_factor;
    o->min_replicas = (int)s->min_replicas;
    o->replica_timeout_ms = (long long)(s->replica_timeout * 1000.0 + 0.5);
    o->prefix = zend_string_copy(s->prefix);
    ZVAL_COPY(&o->logger, &s->logger);
    ZVAL_COPY(&o->on_lost, &s->on_lost);
    o->nodes = ecalloc(n, sizeof *o->nodes);
    for (i = 0; i < n; i++) {
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
        sentinels = sentinels || rl_sentinel_is_form(server);
        clusters = clusters || rl_cluster_is_form(server);
        if ((o->nodes[i] = node_of(o, server, s, argnum, what)) == NULL) {
            return FAILURE;
        }
        o->n = i + 1; /* freed with the object from here */
        if (sentinels && clusters) {
            zend_argument_value_error(argnum, "must not mix sentinel groups and clusters");
            return FAILURE;
        }
        if (same_node_as_earlier(o, i, argnum) == FAILURE) {
            return FAILURE;
        }
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
    zend_string *raw = zend_string_concat2(ZSTR_VAL(o->prefix), ZSTR_LEN(o->prefix), ZSTR_VAL(resource),
                                           ZSTR_LEN(resource));
    size_t len = rl_key_lock(ZSTR_VAL(raw), ZSTR_LEN(raw), NULL, 0);
    if (len == ZSTR_LEN(raw)) { /* the name is its key (an escaped key is longer) */
        return raw;
    }
    /* a name that reads as one of the library's own keys gets a key of its own */
    zend_string *key = zend_string_alloc(len, 0);
    rl_key_lock(ZSTR_VAL(raw), ZSTR_LEN(raw), ZSTR_VAL(key), len + 1);
    zend_string_release(raw);
    return key;
}

rl_conn *rl_object_wait_conn(rl_object *o, size_t i, const char *key, size_t key_len)
{
    rl_node *node = o->nodes[i];
    rl_error err;
    rl_conn *w;
    if (node->ops->route && node->ops->route(node, key, key_len, &o->timeouts, &err) != RL_OK) {
        return node->conn; /* not routed: it names the node, and its waits fail as its commands do */
    }
    if ((w = node->ops->wait_conn(node)) == NULL) {
        rl_throw_status(RL_E_NOMEM, "out of memory");
    }
    return w;
}

size_t rl_object_wait(rl_object *o, const rl_lock_op *op, rl_vote *votes, const rl_timeouts *t)
{
    rl_op e = rl_lock_eop(op);
    size_t yes = rl_nodes_wait(o->nodes, o->n, &e, votes, t, &o->timeouts);
    rl_object_evict_note(o, votes, o->n);
    return yes;
}

size_t rl_object_run(rl_object *o, const rl_lock_op *op, rl_vote *votes, size_t need, int early)
{
    rl_lock_op with_ack = *op;
    rl_timeouts t = o->timeouts;
    rl_op e;
    size_t yes;

    with_ack.min_replicas = o->min_replicas;
    with_ack.replica_timeout_ms = o->replica_timeout_ms;
    if (rl_op_wants_ack(&with_ack)) {
        t.reply_us += with_ack.replica_timeout_ms * 1000; /* WAIT may take that long after the command's reply */
    }
    /* the command may wait for replicas; the topology's own questions do not */
    e = rl_lock_eop(&with_ack);
    yes = rl_nodes_run(o->nodes, o->n, &e, votes, need, early, &t, &o->timeouts);
    rl_object_evict_note(o, votes, o->n);
    return yes;
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
            /* an auto_extend watch keeps the validity: not this record's */
            if ((h->watch == 0 || !o->auto_extend) && h->pid == rl_pid() && h->valid_until_us < now) {
                *at = h->next;
                free_one_held(h);
            } else {
                at = &h->next;
            }
        }
        if (Z_PTR_P(zv) == NULL) {
            zend_hash_del(&o->held, key); /* allowed while iterating (Zend marks the bucket) */
        }
    }
    ZEND_HASH_FOREACH_END();
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
    h->taken_us = rl_now_us();
    h->fence = 0;
    h->mode = RL_MODE_EXCLUSIVE;
    h->watch = 0;
    h->lost_logged = false;
    h->after_wait = false;
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
    if (o->auto_release || Z_TYPE(o->on_lost) != IS_UNDEF) {
        link_live(o); /* on_lost: where the thread's interrupt finds its locks */
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
                rl_lock_op op = {.kind = RL_OP_UNLOCK,
                                 .key = ZSTR_VAL(key),
                                 .key_len = ZSTR_LEN(key),
                                 .token = ZSTR_VAL(h->token),
                                 .token_len = ZSTR_LEN(h->token)};
                if (h->pid != rl_pid()) {
                    continue;
                }
                if (rl_object_run(o, &op, votes, o->quorum, 0) >= o->quorum) {
                    RL_COUNT(released);
                    RL_COUNT(auto_released);
                    rl_metrics_observe(RL_H_HELD, rl_now_us() - h->taken_us);
                    rl_object_log(o, "info", "auto-released", key, NULL);
                } else {
                    RL_COUNT(expired);
                }
            }
        }
        ZEND_HASH_FOREACH_END();
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
