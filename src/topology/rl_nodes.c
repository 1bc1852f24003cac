#include "rl_node.h"
#include "rl_node_cluster.h"
#include "rl_node_sentinel.h"
#include "rl_slots.h"
#include "../base/rl_status.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rl_conn *own_get(const rl_endpoint *ep, rl_conn_role role)
{
    return rl_conn_new(ep, role);
}

const rl_conn_source rl_own_conns = {own_get, rl_conn_free};

rl_conn *rl_placeholder_new(const char *name)
{
    /* an empty host with port 0: the same node as no real one */
    rl_endpoint ep = {.host = "", .port = 0};
    rl_conn *c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    if (c != NULL) {
        rl_conn_set_name(c, name);
    }
    return c;
}

int rl_conns_meet(rl_conn *const *a, size_t na, rl_conn *const *b, size_t nb)
{
    size_t i, j;
    for (i = 0; i < na; i++) {
        for (j = 0; j < nb; j++) {
            if (rl_endpoint_same_node(&a[i]->ep, &b[j]->ep)) {
                return 1;
            }
        }
    }
    return 0;
}

void rl_conns_put(const rl_conn_source *source, rl_conn *const *conns, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        source->put(conns[i]);
    }
}

void rl_node_run_one(const rl_op *op, rl_vote *vote, rl_conn *c, const rl_timeouts *t)
{
    memset(vote, 0, sizeof *vote);
    vote->conn = c;
    rl_engine_run(op, vote, 1, 1, 0, t);
}

/* Up to this many nodes, the run's work arrays are on the stack. */
#define STACK_NODES 8

/* Where node's command goes, routed: its command connection, or for a
 * blocking read (waiting) the waiting connection of the same node. NULL
 * when that cannot be had (out of memory). */
static rl_conn *routed_conn(rl_node *node, int waiting)
{
    return waiting ? node->ops->wait_conn(node) : node->conn;
}

static size_t run(rl_node *const *nodes, size_t n, const rl_op *op, rl_vote *votes, size_t need, int early,
                  const rl_timeouts *t, const rl_timeouts *lookup, int waiting)
{
    rl_vote stack[STACK_NODES], *sub = n <= STACK_NODES ? stack : calloc(n, sizeof *sub);
    char fstack[STACK_NODES], *failed = n <= STACK_NODES ? fstack : calloc(n, 1);
    rl_conn *cstack[STACK_NODES], **conns = n <= STACK_NODES ? cstack : calloc(n, sizeof *conns);
    rl_error err;
    size_t i, k = 0, yes = 0;
    int woke = 0;
    rl_op own;

    for (i = 0; i < n && !(op->flags & RL_ROUTE_SLOTS); i++) {
        if (nodes[i]->ops->masters != NULL) { /* a node of several masters: a Cluster */
            own = *op;
            own.flags |= RL_ROUTE_SLOTS;
            op = &own;
        }
    }
    if (sub == NULL || failed == NULL || conns == NULL) {
        rl_error_set(&err, RL_E_NOMEM, "out of memory");
        for (i = 0; i < n; i++) {
            rl_vote_failed(&votes[i], nodes[i]->conn, &err);
        }
        k = n; /* nobody asked */
        goto done;
    }
    for (i = 0; i < n; i++) {
        rl_node *node = nodes[i];
        failed[i] = 0;
        if (node->ops->route && node->ops->route(node, op->key, op->key_len, lookup, &err) != RL_OK) {
            failed[i] = 1;
            rl_vote_failed(&votes[i], node->conn, &err);
            continue;
        }
        if ((conns[i] = routed_conn(node, waiting)) == NULL) {
            failed[i] = 1;
            rl_error_set(&err, RL_E_NOMEM, "out of memory");
            rl_vote_failed(&votes[i], node->conn, &err);
            continue;
        }
        k++;
    }
    if (k == n) { /* every node routed (the usual case): no copies */
        for (i = 0; i < n; i++) {
            votes[i].conn = conns[i];
        }
        rl_engine_run(op, votes, n, need, early, t);
    } else if (k > 0) {
        for (i = 0, k = 0; i < n; i++) {
            if (!failed[i]) {
                memset(&sub[k], 0, sizeof sub[k]);
                sub[k++].conn = conns[i];
            }
        }
        rl_engine_run(op, sub, k, need, early, t);
        for (i = 0, k = 0; i < n; i++) {
            if (!failed[i]) {
                votes[i] = sub[k++];
            }
        }
    }
    for (i = 0; waiting && i < n; i++) {
        woke = woke || (votes[i].err.code == RL_OK && votes[i].yes);
    }
    for (i = 0; i < n; i++) {
        /* a blocking read that woke somewhere is over: nothing to follow */
        if (!failed[i] && nodes[i]->ops->follow && !woke) {
            nodes[i]->ops->follow(nodes[i], op, &votes[i], t, lookup);
        }
        yes += votes[i].err.code == RL_OK && votes[i].yes;
    }
done:
    if (sub != stack) {
        free(sub);
    }
    if (failed != fstack) {
        free(failed);
    }
    if (conns != cstack) {
        free(conns);
    }
    return yes;
}

size_t rl_nodes_run(rl_node *const *nodes, size_t n, const rl_op *op, rl_vote *votes, size_t need, int early,
                    const rl_timeouts *t, const rl_timeouts *lookup)
{
    return run(nodes, n, op, votes, need, early, t, lookup, 0);
}

size_t rl_nodes_wait(rl_node *const *nodes, size_t n, const rl_op *op, rl_vote *votes, const rl_timeouts *t,
                     const rl_timeouts *lookup)
{
    return run(nodes, n, op, votes, 1, 1, t, lookup, 1);
}

void rl_topology_cache_free(rl_topology_cache *cache)
{
    rl_strmap_clear(&cache->masters);
    rl_strmap_clear(&cache->maps);
}

int rl_nodes_split_keys(rl_node *const *nodes, size_t n, const char *const *keys, const size_t *key_lens, size_t nkeys)
{
    int several = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        several = several || nodes[i]->ops->masters != NULL;
    }
    for (i = 1; several && i < nkeys; i++) {
        if (rl_key_slot(keys[i], key_lens[i]) != rl_key_slot(keys[0], key_lens[0])) {
            return 1;
        }
    }
    return 0;
}
