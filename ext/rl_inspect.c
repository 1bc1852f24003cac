#include "rl_inspect.h"
#include "rl_object.h"
#include "rl_errors.h"
#include "php_redislock.h"
#include "src/lock/rl_quorum.h"
#include <stdio.h>
#include <string.h>

/* A node's answer ("KIND HOLDERS PTTL WAITERS FENCE", rl_op.h) as the
 * array the methods return; false when it does not parse. */
static bool state_of(const char *text, zval *out)
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
    return true;
}

void rl_method_inspect(INTERNAL_FUNCTION_PARAMETERS)
{
    zend_string *resource, *key;
    rl_object *o;
    rl_vote stack_votes[8], *votes;
    size_t i, answered = 0;
    zval nodes, state;

    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_STR(resource)
    ZEND_PARSE_PARAMETERS_END();

    if (!(o = rl_object_ready(ZEND_THIS)) || !(key = rl_object_key(o, resource, 1))) {
        RETURN_THROWS();
    }
    votes = o->n <= 8 ? stack_votes : ecalloc(o->n, sizeof *votes);
    rl_op op = {.kind = RL_OP_INSPECT, .key = ZSTR_VAL(key), .key_len = ZSTR_LEN(key)};
    memset(votes, 0, o->n * sizeof *votes);
    rl_object_run(o, &op, votes, o->n, 0);

    array_init(return_value);
    add_assoc_str(return_value, "resource", zend_string_copy(resource));
    add_assoc_str(return_value, "key", zend_string_copy(key));
    array_init(&nodes);
    for (i = 0; i < o->n; i++) {
        rl_vote *v = &votes[i];
        if (v->err.code == RL_OK && v->yes && state_of(v->err.msg, &state)) {
            answered++;
        } else {
            array_init(&state);
            add_assoc_string(&state, "error", v->err.code == RL_OK ? "malformed reply to the inspect script" : v->err.msg);
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
        zval *only = zend_hash_str_find(Z_ARRVAL(nodes), votes[0].conn->name, strlen(votes[0].conn->name));
        zend_hash_merge(Z_ARRVAL_P(return_value), Z_ARRVAL_P(only), zval_add_ref, 0);
        add_assoc_string(return_value, "node", votes[0].conn->name);
        zval_ptr_dtor(&nodes);
    }
    if (votes != stack_votes) {
        efree(votes);
    }
    zend_string_release(key);
}
