/* A node for one Redis server: always where it is; its waiting connection
 * is made on first wait. */
#include "rl_node.h"
#include <stdlib.h>

typedef struct direct_node {
    rl_node base;
    rl_conn *wait;
} direct_node;

static rl_conn *wait_conn(rl_node *n)
{
    direct_node *d = (direct_node *)n;
    if (d->wait == NULL) {
        d->wait = n->conns->get(&n->conn->ep, RL_ROLE_WAIT);
    }
    return d->wait;
}

static int same(const rl_node *a, const rl_node *b)
{
    return rl_endpoint_same_node(&a->conn->ep, &b->conn->ep);
}

static void free_node(rl_node *n)
{
    direct_node *d = (direct_node *)n;
    n->conns->put(n->conn);
    if (d->wait) {
        n->conns->put(d->wait);
    }
    free(d);
}

static const rl_node_ops direct_ops = {
    .kind = "server",
    .wait_conn = wait_conn,
    .same = same,
    .free = free_node,
};

rl_node *rl_direct_node_new(const rl_endpoint *ep, const rl_conn_source *conns)
{
    direct_node *d = calloc(1, sizeof *d);
    if (d == NULL) {
        return NULL;
    }
    d->base.ops = &direct_ops;
    d->base.conns = conns;
    d->base.conn = conns->get(ep, RL_ROLE_COMMAND);
    if (d->base.conn == NULL) {
        free(d);
        return NULL;
    }
    return &d->base;
}
