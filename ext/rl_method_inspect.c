#include "rl_method_inspect.h"
#include "rl_object.h"
#include "rl_class_errors.h"
#include "php_redislock.h"
#include "src/lock/rl_quorum.h"
#include "src/lock/rl_scan.h"
#include "SAPI.h"
#include "src/base/rl_token.h"
#include <stdlib.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

/* The host's name, asked once per process (a system call per lock else). */
static const char *host_name(void)
{
    ZEND_TLS char host[256]; /* a thread's own on a thread-safe PHP */
    ZEND_TLS pid_t asked_by;
    if (asked_by != getpid()) {
        if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') {
            snprintf(host, sizeof host, "unknown-host");
        }
        host[sizeof host - 1] = '\0';
        asked_by = getpid();
    }
    return host;
}

size_t rl_holder_name(char *out, size_t cap)
{
    const char *method = SG(request_info).request_method, *uri = SG(request_info).request_uri;
    const char *host = host_name();
    int n;
    if (uri != NULL && method != NULL) {
        /* the path only: a query string may hold what must not be shown */
        n = snprintf(out, cap, "%s pid=%ld %s %.*s", host, (long)getpid(), method, (int)strcspn(uri, "?#"), uri);
    } else {
        const char *script = SG(request_info).path_translated;
        n = snprintf(out, cap, "%s pid=%ld %s %s", host, (long)getpid(), sapi_module.name,
                     script != NULL ? script : "-");
    }
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

/* inspect()'s holders' names: from each token that carries one. */
static void on_token(void *ctx, const char *token, size_t len)
{
    zval *names = ctx;
    size_t nlen;
    const char *name = rl_token_holder(token, len, &nlen);
    if (name != NULL) {
        add_next_index_stringl(names, name, nlen);
    }
}

/* A node's answer ("KIND HOLDERS PTTL WAITERS FENCE", rl_op.h) as the
 * array the methods return; false when it does not parse. */
static bool state_of(const char *text, zval *names, zval *out)
{
    char kind[16];
    long long holders, pttl, waiters, fence;
    if (sscanf(text, "%15s %lld %lld %lld %lld", kind, &holders, &pttl, &waiters, &fence) != 5) {
        return false;
    }
    array_init(out);
    add_assoc_string(out, "kind", kind);
    add_assoc_long(out, "holders", (zend_long)holders);
    if (pttl >= 0) {
        add_assoc_long(out, "ttl", (zend_long)pttl);
    } else {
        add_assoc_null(out, "ttl"); /* no key, or a key without a TTL */
    }
    add_assoc_long(out, "waiters", (zend_long)waiters);
    if (fence >= 0) {
        add_assoc_long(out, "fence", (zend_long)fence);
    } else {
        add_assoc_null(out, "fence");
    }
    Z_TRY_ADDREF_P(names);
    add_assoc_zval(out, "names", names); /* option holder_names: who holds it */
    return true;
}

void rl_method_inspect(INTERNAL_FUNCTION_PARAMETERS)
{
    zend_string *resource, *key;
    rl_object *o;
    rl_vote stack_votes[8], *votes;
    size_t i, answered = 0;
    zval nodes, state, *names;

    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_STR(resource)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS)) || !(key = rl_object_key(o, resource, 1))) {
        RETURN_THROWS();
    }
    votes = o->n <= 8 ? stack_votes : ecalloc(o->n, sizeof *votes);
    names = ecalloc(o->n, sizeof *names);
    memset(votes, 0, o->n * sizeof *votes);
    for (i = 0; i < o->n; i++) { /* each node's own: one run per node, its holders' names apart */
        rl_lock_op op = {.kind = RL_OP_INSPECT,
                         .key = ZSTR_VAL(key),
                         .key_len = ZSTR_LEN(key),
                         .on_key = on_token,
                         .on_key_ctx = &names[i]};
        array_init(&names[i]);
        rl_op eop = rl_lock_eop(&op);
        rl_nodes_run(&o->nodes[i], 1, &eop, &votes[i], 1, 0, &o->timeouts, &o->timeouts);
    }
    rl_object_evict_note(o, votes, o->n);

    array_init(return_value);
    add_assoc_str(return_value, "resource", zend_string_copy(resource));
    add_assoc_str(return_value, "key", zend_string_copy(key));
    array_init(&nodes);
    for (i = 0; i < o->n; i++) {
        rl_vote *v = &votes[i];
        if (v->err.code == RL_OK && v->yes && state_of(v->result.text, &names[i], &state)) {
            answered++;
        } else {
            array_init(&state);
            add_assoc_string(&state, "error",
                             v->err.code == RL_OK ? "malformed reply to the inspect script" : v->err.msg);
        }
        add_assoc_zval(&nodes, v->conn->name, &state);
    }
    if (answered == 0 || (!o->redlock && answered < o->n)) {
        zval_ptr_dtor(&nodes);
        zval_ptr_dtor(return_value);
        ZVAL_NULL(return_value);
        rl_throw_nodes(votes, o->n, o->redlock ? 1 : o->n);
    } else if (o->redlock) {
        add_assoc_zval(return_value, "nodes", &nodes);
    } else { /* one node: its state beside the names */
        zval *only = NULL;
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL(nodes), only) {
            break; /* its one node's */
        }
        ZEND_HASH_FOREACH_END();
        zend_hash_merge(Z_ARRVAL_P(return_value), Z_ARRVAL_P(only), zval_add_ref, 0);
        add_assoc_string(return_value, "node", votes[0].conn->name);
        zval_ptr_dtor(&nodes);
    }
    for (i = 0; i < o->n; i++) {
        zval_ptr_dtor(&names[i]);
    }
    efree(names);
    if (votes != stack_votes) {
        efree(votes);
    }
    zend_string_release(key);
}

typedef struct scan_ctx {
    HashTable *found; /* resource name => true */
    zend_long limit;
} scan_ctx;

static void on_name(void *ctx, const char *name, size_t len)
{
    scan_ctx *s = ctx;
    if (zend_hash_num_elements(s->found) < (uint32_t)s->limit) {
        zend_hash_str_add_empty_element(s->found, name, len);
    }
}

static int enough(void *ctx)
{
    scan_ctx *s = ctx;
    return zend_hash_num_elements(s->found) >= (uint32_t)s->limit;
}

static int compare_names(Bucket *a, Bucket *b)
{
    return zend_binary_strcmp(ZSTR_VAL(a->key), ZSTR_LEN(a->key), ZSTR_VAL(b->key), ZSTR_LEN(b->key));
}

void rl_method_locks(INTERNAL_FUNCTION_PARAMETERS)
{
    zend_string *pattern = NULL;
    char *match;
    zend_long limit = 1000;
    rl_object *o;
    HashTable found;
    rl_vote *failed;
    size_t i, answered = 0;
    scan_ctx s;

    ZEND_PARSE_PARAMETERS_START(0, 2)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR(pattern)
        Z_PARAM_LONG(limit)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS))) {
        RETURN_THROWS();
    }
    if (pattern != NULL && (ZSTR_LEN(pattern) == 0 || memchr(ZSTR_VAL(pattern), '\0', ZSTR_LEN(pattern)) != NULL)) {
        zend_argument_value_error(1, "must be a non-empty pattern without NUL bytes");
        RETURN_THROWS();
    }
    if (limit < 1 || limit > 1000000) {
        zend_argument_value_error(2, "must be between 1 and 1000000");
        RETURN_THROWS();
    }
    match = rl_scan_match(ZSTR_VAL(o->prefix), ZSTR_LEN(o->prefix), pattern != NULL ? ZSTR_VAL(pattern) : "*",
                          pattern != NULL ? ZSTR_LEN(pattern) : 1);
    if (match == NULL) {
        rl_throw_status(RL_E_NOMEM, "out of memory");
        RETURN_THROWS();
    }
    zend_hash_init(&found, 64, NULL, NULL, 0);
    s = (scan_ctx){.found = &found, .limit = limit};
    failed = ecalloc(o->n, sizeof *failed);
    for (i = 0; i < o->n; i++) {
        rl_scan scan = {.match = match,
                        .prefix = ZSTR_VAL(o->prefix),
                        .prefix_len = ZSTR_LEN(o->prefix),
                        .on_name = on_name,
                        .enough = enough,
                        .on_name_ctx = &s};
        answered += rl_scan_node(o->nodes[i], &scan, &o->timeouts, &failed[i]) == RL_OK;
    }
    free(match);
    /* a RedisLock's node must answer (a Cluster's every master); a RedLock lists what its nodes that answered hold */
    if (answered == 0 || (!o->redlock && answered < o->n)) {
        zend_hash_destroy(&found);
        rl_throw_nodes(failed, o->n, o->redlock ? 1 : o->n);
        efree(failed);
        RETURN_THROWS();
    }
    efree(failed);
    zend_hash_sort(&found, compare_names, 0);
    array_init_size(return_value, zend_hash_num_elements(&found));
    zend_string *name;
    ZEND_HASH_FOREACH_STR_KEY(&found, name) {
        add_next_index_str(return_value, zend_string_copy(name));
    }
    ZEND_HASH_FOREACH_END();
    zend_hash_destroy(&found);
}

void rl_method_watch(INTERNAL_FUNCTION_PARAMETERS)
{
    zend_string *resource, *key;
    double timeout;
    rl_object *o;
    rl_vote *votes;
    rl_timeouts t;
    size_t i, answered = 0, woken;

    ZEND_PARSE_PARAMETERS_START(2, 2)
        Z_PARAM_STR(resource)
        Z_PARAM_DOUBLE(timeout)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS)) || !(key = rl_object_key(o, resource, 1))) {
        RETURN_THROWS();
    }
    if (!(timeout > 0.0 && timeout <= 3600.0)) {
        zend_string_release(key);
        zend_argument_value_error(2, "must be a number of seconds above 0 and at most 3600");
        RETURN_THROWS();
    }
    rl_lock_op op = {.kind = RL_OP_WATCH,
                     .key = ZSTR_VAL(key),
                     .key_len = ZSTR_LEN(key),
                     .wait_ms = (long long)(timeout * 1000.0 + 0.5)};
    t = o->timeouts;
    t.reply_us += (int64_t)op.wait_ms * 1000; /* the block, then the usual reply time */
    votes = ecalloc(o->n, sizeof *votes);
    rl_op eop = rl_lock_eop(&op);
    woken = rl_nodes_run(o->nodes, o->n, &eop, votes, o->n, 0, &t, &o->timeouts);
    rl_object_evict_note(o, votes, o->n);
    for (i = 0; i < o->n; i++) {
        answered += votes[i].err.code == RL_OK;
    }
    if (answered == 0 || (!o->redlock && answered < o->n)) {
        rl_throw_nodes(votes, o->n, o->redlock ? 1 : o->n);
    }
    efree(votes);
    zend_string_release(key);
    if (EG(exception)) {
        RETURN_THROWS();
    }
    RETURN_BOOL(woken > 0);
}
