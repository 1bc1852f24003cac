/* A Sentinel group as a node: its master is asked of every sentinel at
 * once on first use (the first good answer wins), checked with ROLE, and
 * cached per thread; after a failure that may be a failover the sentinels
 * are asked again, and a new master gets the command once more in its
 * safe-to-repeat form. Replies are judged in rl_sentinel.c. */
#include "rl_node_sentinel.h"
#include "rl_sentinel.h"
#include "rl_topology_cmds.h"
#include "../base/rl_status.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct sentinel_node {
    rl_node base; /* base.conn: the master, or the placeholder */
    char *service;
    size_t service_len;
    rl_conn **sentinels;
    size_t ns;
    rl_endpoint master_tpl;   /* the master's user, password and database; no address */
    rl_conn *placeholder;     /* never connected: names the group until its master is known */
    rl_conn *master;          /* the master in use */
    unsigned generation;      /* counts changes of master */
    rl_conn *wait;            /* the waiting connection of... */
    unsigned wait_generation; /* ...the master of this generation */
    rl_strmap *masters;       /* the thread's cache: key => rl_sentinel_addr */
    char *cache_key;
    size_t cache_key_len;
} sentinel_node;

static int same(const rl_node *na, const rl_node *nb)
{
    const sentinel_node *a = (const sentinel_node *)na, *b = (const sentinel_node *)nb;
    return a->service_len == b->service_len && memcmp(a->service, b->service, a->service_len) == 0
           && rl_conns_meet(a->sentinels, a->ns, b->sentinels, b->ns);
}

static void free_node(rl_node *n)
{
    sentinel_node *g = (sentinel_node *)n;
    rl_conns_put(n->conns, g->sentinels, g->ns);
    if (g->master) {
        n->conns->put(g->master);
    }
    if (g->wait) {
        n->conns->put(g->wait);
    }
    rl_conn_free(g->placeholder);
    rl_endpoint_clear(&g->master_tpl);
    free(g->sentinels);
    free(g->service);
    free(g->cache_key);
    free(g);
}

static rl_conn *wait_conn(rl_node *n)
{
    sentinel_node *g = (sentinel_node *)n;
    rl_conn *w;
    if (g->wait != NULL && g->wait_generation == g->generation) {
        return g->wait;
    }
    w = n->conns->get(&(g->master ? g->master : g->placeholder)->ep, RL_ROLE_WAIT);
    if (w != NULL) {
        if (g->wait) {
            n->conns->put(g->wait);
        }
        g->wait = w;
        g->wait_generation = g->generation;
    }
    return w;
}

/* Points the node at the master host:port (its connection to it reused
 * when it is the same node). */
static int point_at(sentinel_node *g, const char *host, int port)
{
    rl_endpoint ep;
    rl_conn *c;

    if (g->master && g->master->ep.host && g->master->ep.port == port && strcasecmp(g->master->ep.host, host) == 0) {
        g->base.conn = g->master;
        return RL_OK;
    }
    if (rl_endpoint_copy(&ep, &g->master_tpl) != 0 || rl_endpoint_set_str(&ep.host, host, strlen(host)) != 0) {
        rl_endpoint_clear(&ep);
        return RL_E_NOMEM;
    }
    ep.port = port;
    c = g->base.conns->get(&ep, RL_ROLE_COMMAND);
    rl_endpoint_clear(&ep);
    if (c == NULL) {
        return RL_E_NOMEM;
    }
    if (g->master) {
        g->base.conns->put(g->master);
    }
    rl_conn_set_must_answer(c);
    g->master = c;
    g->generation++;
    g->base.conn = c;
    return RL_OK;
}

static int lost_master(sentinel_node *g, rl_error *err)
{
    rl_strmap_del(g->masters, g->cache_key, g->cache_key_len);
    g->base.conn = g->placeholder;
    return err->code;
}

/* Asks every sentinel at once for the master, checks it with ROLE, caches
 * it. force: do not use the cache. RL_OK, or a status with the reason in
 * err (the node then points at its placeholder). */
static int resolve(sentinel_node *g, int force, const rl_timeouts *t, rl_error *err)
{
    rl_sentinel_addr *cached = force ? NULL : rl_strmap_get(g->masters, g->cache_key, g->cache_key_len);
    rl_topology_args master = {.service = g->service, .service_len = g->service_len}, none = {0};
    rl_op op = rl_topology_op(RL_TOPO_SENTINEL_MASTER, &master);
    rl_op role = rl_topology_op(RL_TOPO_ROLE, &none);
    rl_vote stack[8], *votes, check;
    rl_sentinel_addr addr;
    const char *from = NULL;
    size_t j;

    if (cached) {
        if (point_at(g, cached->host, cached->port) != RL_OK) {
            g->base.conn = g->placeholder;
            return rl_error_set(err, RL_E_NOMEM, "out of memory");
        }
        return RL_OK;
    }
    votes = g->ns <= 8 ? stack : calloc(g->ns, sizeof *votes);
    if (votes == NULL) {
        g->base.conn = g->placeholder;
        return rl_error_set(err, RL_E_NOMEM, "out of memory");
    }
    memset(votes, 0, g->ns * sizeof *votes);
    for (j = 0; j < g->ns; j++) {
        votes[j].conn = g->sentinels[j];
    }
    rl_engine_run(&op, votes, g->ns, 1, 1, t);
    for (j = 0; j < g->ns && from == NULL; j++) {
        if (votes[j].err.code == RL_OK && votes[j].yes) {
            snprintf(addr.host, sizeof addr.host, "%.*s", (int)sizeof addr.host - 1, votes[j].result.text);
            addr.port = (int)votes[j].value;
            from = g->sentinels[j]->name;
        }
    }
    if (from == NULL) {
        rl_error_set(err, RL_E_NO_MASTER, "no sentinel knows the master of \"%s\": ", g->service);
        for (j = 0; j < g->ns; j++) {
            rl_error_append(err, "%s%s: %s", j ? "; " : "", g->sentinels[j]->name,
                            votes[j].err.code == RL_E_SKIPPED ? "no answer" : votes[j].err.msg);
        }
    }
    if (votes != stack) {
        free(votes);
    }
    if (from == NULL) {
        return lost_master(g, err);
    }
    if (point_at(g, addr.host, addr.port) != RL_OK) {
        g->base.conn = g->placeholder;
        return rl_error_set(err, RL_E_NOMEM, "out of memory");
    }
    rl_node_run_one(&role, &check, g->base.conn, t);
    if (check.err.code != RL_OK || !check.yes) {
        rl_error_set(err, check.err.code == RL_OK ? RL_E_NO_MASTER : check.err.code,
                     "sentinel %s names %s as the master of \"%s\", but %s", from, g->base.conn->name, g->service,
                     check.err.msg);
        return lost_master(g, err);
    }
    cached = malloc(sizeof *cached);
    if (cached != NULL) {
        *cached = addr;
        rl_strmap_put(g->masters, g->cache_key, g->cache_key_len, cached); /* a cache: a failure costs a lookup */
    }
    return RL_OK;
}

static int route(rl_node *n, const char *key, size_t key_len, const rl_timeouts *lookup, rl_error *err)
{
    sentinel_node *g = (sentinel_node *)n;
    (void)key;
    (void)key_len;
    return n->conn == g->placeholder ? resolve(g, 0, lookup, err) : RL_OK;
}

static void follow(rl_node *n, const rl_op *op, rl_vote *vote, const rl_timeouts *t, const rl_timeouts *lookup)
{
    sentinel_node *g = (sentinel_node *)n;
    unsigned old = g->generation;
    rl_error err;
    rl_op again;

    /* only commands that act on a lock move to a new master; a waiter's
     * own queue entries went to the old one */
    if ((op->flags & RL_ROUTE_STAYS) || !rl_sentinel_failover_sign(vote->err.code, vote->err.msg)) {
        return;
    }
    /* the master may have changed: ask the sentinels again; a new master
     * gets the command once more, in its safe-to-repeat form (a lock the
     * old master replicated before it fell counts as ours) */
    if (resolve(g, 1, lookup, &err) != RL_OK) {
        rl_vote_failed(vote, g->placeholder, &err);
        return;
    }
    if (g->generation == old) {
        return; /* the sentinels still name it: its failure stands */
    }
    again = *op;
    again.repeat = 1;
    rl_node_run_one(&again, vote, n->conn, t);
}

static const rl_node_ops sentinel_ops = {
    .kind = "sentinel group",
    .route = route,
    .follow = follow,
    .wait_conn = wait_conn,
    .same = same,
    .same_because = "service and a sentinel in common",
    .free = free_node,
};

rl_node *rl_sentinel_node_new(const rl_sentinel_spec *spec, const rl_conn_source *conns, rl_topology_cache *cache)
{
    sentinel_node *g = calloc(1, sizeof *g);
    const char **names = NULL;
    char shown[256];
    size_t i, need;

    if (g == NULL) {
        return NULL;
    }
    g->base.ops = &sentinel_ops;
    g->base.conns = conns;
    g->masters = &cache->masters;
    if ((g->sentinels = calloc(spec->n, sizeof *g->sentinels)) == NULL
        || (g->service = malloc(spec->service_len + 1)) == NULL
        || rl_endpoint_copy(&g->master_tpl, spec->master_tpl) != 0) {
        goto oom;
    }
    memcpy(g->service, spec->service, spec->service_len);
    g->service[spec->service_len] = '\0';
    g->service_len = spec->service_len;
    for (i = 0; i < spec->n; i++) {
        if ((g->sentinels[i] = conns->get(&spec->sentinels[i], RL_ROLE_COMMAND)) == NULL) {
            goto oom;
        }
        g->ns = i + 1;
    }
    snprintf(shown, sizeof shown, "sentinel service \"%.200s\"", g->service);
    if ((g->placeholder = rl_placeholder_new(shown)) == NULL) {
        goto oom;
    }
    g->base.conn = g->placeholder;
    /* the cache key: the service, every sentinel, and the digest of the
     * sentinels' credentials, URLs' included (an object with wrong ones
     * must not use a master another object found) */
    if ((names = calloc(spec->n + 1, sizeof *names)) == NULL) {
        goto oom;
    }
    for (i = 0; i < spec->n; i++) {
        names[i] = g->sentinels[i]->name;
    }
    names[spec->n] = spec->sentinel_credentials_digest ? spec->sentinel_credentials_digest : "";
    need = rl_sentinel_cache_key(g->service, names, spec->n + 1, NULL, 0);
    if ((g->cache_key = malloc(need + 1)) == NULL) {
        goto oom;
    }
    g->cache_key_len = rl_sentinel_cache_key(g->service, names, spec->n + 1, g->cache_key, need + 1);
    free(names);
    return &g->base;
oom:
    free(names);
    free_node(&g->base);
    return NULL;
}
