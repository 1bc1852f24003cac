/* A lock's wait with deadlock detection (rl_object_lock.h): the wait-for
 * edges key, the detection's state for rl_wait_run(), and the exception
 * when a cycle of waits closes at this waiter. */
#include "rl_object_lock.h"
#include "rl_object_wait.h"
#include "rl_class_errors.h"
#include "src/lock/rl_deadlock.h"
#include "src/base/rl_status.h"
#include <string.h>

/* The object's wait-for edges key: its prefix, then "\0waits" (a NUL, as
 * the derived keys have: SCAN leaves it out). */
static zend_string *edges_key(rl_object *o)
{
    return zend_string_concat2(ZSTR_VAL(o->prefix), ZSTR_LEN(o->prefix), "\0waits", 6);
}

/* A node's blocking read failed: the logger is told (a warning naming the
 * node and its answer; the wait looks again). -1 when the logger threw. */
static int wake_failed(void *ctx, const char *key, size_t key_len, const rl_vote *v)
{
    rl_object *o = ctx;
    zend_string *k;
    zval context;
    if (Z_TYPE(o->logger) == IS_UNDEF) {
        return 0;
    }
    k = zend_string_init(key, key_len, 0);
    array_init(&context);
    add_assoc_string(&context, "node", v->conn->name);
    add_assoc_string(&context, "error", v->err.msg[0] ? v->err.msg : rl_status_name(v->err.code));
    rl_object_log(o, "warning", "wake-failed", k, &context);
    zend_string_release(k);
    return EG(exception) ? -1 : 0;
}

int rl_lock_wait_traced(rl_object *o, const rl_lock_nodes *ns, rl_lock_op *like, int64_t deadline_us, int promoting,
                        const rl_wait_hooks *given, bool traced, int *status)
{
    rl_deadlock dl;
    zend_string *edges = NULL;
    rl_wait_hooks told = *given, *hooks = &told;
    int r;

    told.wake_failed = wake_failed;
    told.log_ctx = o;

    if (traced && o->deadlock_detection) {
        edges = edges_key(o);
        memset(&dl, 0, sizeof dl);
        dl.edges_key = ZSTR_VAL(edges);
        dl.edges_key_len = ZSTR_LEN(edges);
        like->deadlock = &dl;
    }
    r = rl_wait_run(ns, like, deadline_us, promoting, hooks, status);
    like->deadlock = NULL; /* dl lives in this frame only */
    if (r == RL_WAIT_DEADLOCK && *status == 0) {
        rl_throw_deadlock(&dl, ZSTR_LEN(o->prefix));
        r = -1;
    }
    if (edges != NULL) {
        zend_string_release(edges);
    }
    return r;
}
