/* A lock's wait with deadlock detection (rl_locking.h): the wait-for
 * edges key, the detection's state for rl_wait_run(), and the exception
 * when a cycle of waits closes at this waiter. */
#include "rl_locking.h"
#include "rl_errors.h"
#include "src/lock/rl_deadlock.h"
#include <string.h>

/* The object's wait-for edges key: its prefix, then "\0waits" (a NUL, as
 * the derived keys have: SCAN leaves it out). */
static zend_string *edges_key(rl_object *o)
{
    return zend_string_concat2(ZSTR_VAL(o->prefix), ZSTR_LEN(o->prefix), "\0waits", 6);
}

int rl_lock_wait_traced(rl_object *o, const rl_lock_nodes *ns, rl_op *like, int64_t deadline_us, int promoting,
                        const rl_wait_hooks *hooks, bool traced, int *status)
{
    rl_deadlock dl;
    zend_string *edges = NULL;
    int r;

    if (traced) {
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
