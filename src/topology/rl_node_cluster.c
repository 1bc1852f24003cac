/* A Redis Cluster as a node: the per-thread cache of each cluster's slot
 * map, routing an operation to the master of its key's slot, and following
 * MOVED, ASK, TRYAGAIN and CLUSTERDOWN within the call. The slot arithmetic
 * and the judging of CLUSTER SLOTS and redirections are in rl_slots.c. */
#include "rl_node_cluster.h"
#include "rl_slots.h"
#include "rl_cluster_policy.h"
#include "rl_topology_cmds.h"
#include "../base/rl_status.h"
#include "../base/rl_clock.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Nodes asked at once for the slot map: the seeds, then the map's masters. */
#define MAX_ASKED 16
/* Master connections by their index in the map, for the first masters: a
 * routed key costs a CRC16 and two array reads. */
#define NODE_CACHE 16

/* A cluster's slot map, in the thread's cache; updated in place, freed
 * only with the cache, so a node may keep a pointer to it. */
typedef struct cluster_map {
    rl_slot_map map;
    int known;    /* filled at least once */
    unsigned gen; /* changes with every change of the map */
} cluster_map;

static rl_topology_counts counts; /* every thread's: relaxed atomic additions */
#define COUNT(field) ((void)__atomic_fetch_add(&counts.field, 1, __ATOMIC_RELAXED))

void rl_topology_counts_get(rl_topology_counts *out)
{
    out->redirects = __atomic_load_n(&counts.redirects, __ATOMIC_RELAXED);
    out->map_refreshes = __atomic_load_n(&counts.map_refreshes, __ATOMIC_RELAXED);
    out->one_key_releases = __atomic_load_n(&counts.one_key_releases, __ATOMIC_RELAXED);
}

typedef struct cluster_node {
    rl_node base; /* base.conn: the master of the last key routed, or the placeholder */
    rl_conn **seeds;
    size_t ns;
    rl_endpoint tpl;      /* the nodes' user, password and TLS; no address */
    rl_conn *placeholder; /* never connected: names the cluster in messages */
    rl_conn **known;      /* connections to nodes made so far (both roles) */
    size_t nknown, cap;
    char *cache_key;
    size_t cache_key_len;
    rl_strmap *maps;              /* the thread's cache: seeds and scheme => cluster_map */
    cluster_map *cm;              /* its entry, once looked up */
    rl_conn *routed;              /* the master last routed to (NULL: none yet) */
    rl_conn *by_node[NODE_CACHE]; /* command connection of map node i... */
    unsigned by_node_gen;         /* ...valid while cm->gen is this */
} cluster_node;

static int same(const rl_node *na, const rl_node *nb)
{
    const cluster_node *a = (const cluster_node *)na, *b = (const cluster_node *)nb;
    return rl_conns_meet(a->seeds, a->ns, b->seeds, b->ns);
}

static void free_node(rl_node *n)
{
    cluster_node *g = (cluster_node *)n;
    rl_conns_put(n->conns, g->seeds, g->ns);
    rl_conns_put(n->conns, g->known, g->nknown);
    rl_conn_free(g->placeholder);
    rl_endpoint_clear(&g->tpl);
    free(g->seeds);
    free(g->known);
    free(g->cache_key);
    free(g);
}

/* The node's connection to host:port in role (made on first use). */
static rl_conn *node_conn(cluster_node *g, const char *host, int port, rl_conn_role role)
{
    rl_endpoint ep;
    rl_conn *c;
    size_t i;

    for (i = 0; i < g->nknown; i++) {
        c = g->known[i];
        if (c->role == role && c->ep.port == port && c->ep.host && strcasecmp(c->ep.host, host) == 0) {
            return c;
        }
    }
    if (g->nknown == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 8;
        rl_conn **more = realloc(g->known, cap * sizeof *more);
        if (more == NULL) {
            return NULL;
        }
        g->known = more;
        g->cap = cap;
    }
    if (rl_endpoint_copy(&ep, &g->tpl) != 0 || rl_endpoint_set_str(&ep.host, host, strlen(host)) != 0) {
        rl_endpoint_clear(&ep);
        return NULL;
    }
    ep.port = port;
    c = g->base.conns->get(&ep, role);
    rl_endpoint_clear(&ep);
    if (c != NULL) {
        g->known[g->nknown++] = c;
    }
    return c;
}

/* The waiting connection of the master last routed to (a route that failed
 * since leaves it: the waiter's queue entries are there); never routed: the
 * placeholder, whose waits fail as its commands do; out of memory: the
 * command connection. */
static rl_conn *wait_conn(rl_node *n)
{
    cluster_node *g = (cluster_node *)n;
    rl_conn *w;
    if (g->routed == NULL) {
        return n->conn;
    }
    w = node_conn(g, g->routed->ep.host, g->routed->ep.port, RL_ROLE_WAIT);
    return w != NULL ? w : g->routed;
}

/* Points the node's commands at c, a master of the map. */
static void point(cluster_node *g, rl_conn *c)
{
    g->base.conn = c;
    g->routed = c;
}

static cluster_map *map_of(cluster_node *g)
{
    if (g->cm == NULL) {
        g->cm = rl_strmap_get(g->maps, g->cache_key, g->cache_key_len);
        if (g->cm == NULL && (g->cm = calloc(1, sizeof *g->cm)) != NULL) {
            rl_slot_map_clear(&g->cm->map);
            if (rl_strmap_put(g->maps, g->cache_key, g->cache_key_len, g->cm) != 0) {
                g->cm = NULL; /* freed by the map */
            }
        }
    }
    return g->cm;
}

/* CLUSTER SLOTS answers are bigger than lock replies: the asked connections
 * take them under raised limits, put back after. */
static void map_limits(rl_reply_limits *l)
{
    rl_reply_limits_default(l);
    l->max_elements = RL_SLOT_COUNT; /* one range per slot at worst */
    l->max_reply = 16 * 1024 * 1024; /* 16384 ranges of a few hundred bytes */
}

/* Asks the seeds and the map's masters at once for the slot map (the first
 * complete one wins). RL_OK, or RL_E_NO_SLOT_MAP with every node's answer. */
static int refresh(cluster_node *g, const rl_timeouts *t, rl_error *err)
{
    cluster_map *cm = map_of(g);
    rl_conn *asked[MAX_ASKED];
    rl_vote votes[MAX_ASKED];
    rl_topology_args args = {0};
    rl_op op = rl_topology_op(RL_TOPO_CLUSTER_SLOTS, &args);
    rl_slot_map *fresh;
    rl_reply_limits big;
    size_t i, j, n = 0;

    if (cm == NULL || (fresh = malloc(sizeof *fresh)) == NULL) {
        return rl_error_set(err, RL_E_NOMEM, "out of memory");
    }
    rl_slot_map_clear(fresh);
    for (i = 0; i < g->ns && n < MAX_ASKED; i++) {
        asked[n++] = g->seeds[i];
    }
    for (i = 0; cm->known && i < cm->map.nnodes && n < MAX_ASKED; i++) {
        rl_conn *c = node_conn(g, cm->map.nodes[i].host, cm->map.nodes[i].port, RL_ROLE_COMMAND);
        for (j = 0; c && j < n && !rl_endpoint_same_node(&asked[j]->ep, &c->ep); j++) {
        }
        if (c && j == n) {
            asked[n++] = c;
        }
    }
    memset(votes, 0, sizeof votes);
    map_limits(&big);
    for (i = 0; i < n; i++) {
        votes[i].conn = asked[i];
        rl_conn_set_limits(asked[i], &big);
    }
    args.slot_map = fresh;
    rl_engine_run(&op, votes, n, 1, 1, t);
    for (i = 0; i < n; i++) {
        rl_conn_set_limits(asked[i], NULL);
    }
    COUNT(map_refreshes);
    if (!rl_slot_map_complete(fresh)) {
        rl_error_set(err, RL_E_NO_SLOT_MAP, "no node answered with a slot map covering every slot: ");
        for (i = 0; i < n; i++) {
            rl_error_append(err, "%s%s: %s", i ? "; " : "", asked[i]->name,
                            votes[i].err.code == RL_E_SKIPPED ? "no answer"
                            : votes[i].err.msg[0]             ? votes[i].err.msg
                                                              : rl_status_name(votes[i].err.code));
        }
        free(fresh);
        return RL_E_NO_SLOT_MAP;
    }
    memcpy(&cm->map, fresh, sizeof cm->map);
    cm->known = 1;
    cm->gen++;
    free(fresh);
    return RL_OK;
}

/* The master connection of slot, refreshing the map when there is none or
 * it serves no master for the slot. NULL with err set on failure. */
static rl_conn *slot_conn(cluster_node *g, unsigned slot, const rl_timeouts *t, rl_error *err)
{
    cluster_map *cm = map_of(g);
    int idx;
    rl_conn *c;

    if (cm == NULL) {
        rl_error_set(err, RL_E_NOMEM, "out of memory");
        return NULL;
    }
    idx = cm->known ? rl_slot_map_node(&cm->map, slot) : -1;
    if (idx < 0) {
        if (refresh(g, t, err) != RL_OK) {
            return NULL;
        }
        if ((idx = rl_slot_map_node(&cm->map, slot)) < 0) {
            rl_error_set(err, RL_E_NO_SLOT_MAP, "no master serves slot %u", slot);
            return NULL;
        }
    }
    if (g->by_node_gen != cm->gen) {
        memset(g->by_node, 0, sizeof g->by_node);
        g->by_node_gen = cm->gen;
    }
    if (idx < NODE_CACHE && g->by_node[idx] != NULL) {
        return g->by_node[idx];
    }
    c = node_conn(g, cm->map.nodes[idx].host, cm->map.nodes[idx].port, RL_ROLE_COMMAND);
    if (c == NULL) {
        rl_error_set(err, RL_E_NOMEM, "out of memory");
    } else if (idx < NODE_CACHE) {
        g->by_node[idx] = c;
    }
    return c;
}

static int route(rl_node *n, const char *key, size_t key_len, const rl_timeouts *lookup, rl_error *err)
{
    cluster_node *g = (cluster_node *)n;
    rl_conn *c = slot_conn(g, rl_key_slot(key, key_len), lookup, err);
    if (c == NULL) {
        n->conn = g->placeholder;
        return err->code;
    }
    point(g, c);
    return RL_OK;
}

/* Follows what the cluster said (rl_cluster_next_step() decides) until an
 * answer, a failure that is not the map's, or the call's time is out. */
static void follow(rl_node *n, const rl_op *op, rl_vote *vote, const rl_timeouts *t, const rl_timeouts *lookup)
{
    cluster_node *g = (cluster_node *)n;
    cluster_map *cm;
    rl_follow_state st = {0};
    unsigned slot;
    rl_error tryagain, last;
    /* a blocking read is followed on waiting connections, as it was sent,
     * with its reply bounds */
    rl_conn *sent_on = vote->conn;
    /* following is bounded by the call's t, the slot maps it fetches too;
     * but a blocking read's t ends at its stop time, which a map fetched
     * within it would not reach */
    const rl_timeouts *maps = t->stop_at_us ? lookup : t;

    if (vote->err.code == RL_OK
        || (vote->err.code != RL_E_REPLY && vote->err.code != RL_E_CONNECT && vote->err.code != RL_E_TIMEOUT
            && vote->err.code != RL_E_IO)) {
        return; /* the usual case: an answer */
    }
    cm = map_of(g);
    st.start_us = rl_now_us();
    slot = rl_key_slot(op->key, op->key_len);
    while (cm != NULL) {
        rl_follow_plan p = rl_cluster_next_step(&st, op, vote, rl_now_us(), t);
        struct timespec pause = {0, RL_CLUSTER_PAUSE_US * 1000L};
        rl_op again = *op;
        rl_conn *c = NULL, *was = vote->conn;

        if (p.step == RL_FOLLOW_STOP) {
            if (p.counted) {
                COUNT(redirects);
            }
            return;
        }
        if (p.pause) {
            nanosleep(&pause, NULL);
        }
        if (p.counted) {
            COUNT(redirects);
        }
        if (p.refresh) {
            refresh(g, maps, &last); /* a failure leaves the old map: the slot's master is looked up anyway */
        }
        switch (p.step) {
        case RL_FOLLOW_MOVED:
            /* for the slot at hand the node that gave it away is the newer
             * word (the node the map came from may not have heard of the
             * failover yet); a MOVED naming another slot changes nothing */
            if (p.rd.slot == slot) {
                rl_slot_map_set(&cm->map, p.rd.slot, p.rd.host, p.rd.port);
                cm->gen++;
            }
            c = slot_conn(g, slot, maps, &last);
            break;
        case RL_FOLLOW_ASK:
            c = node_conn(g, p.rd.host, p.rd.port, RL_ROLE_COMMAND);
            again.prefix = rl_asking_prefix;
            break;
        case RL_FOLLOW_ONE_KEY:
            tryagain = vote->err;
            c = slot_conn(g, slot, maps, &last);
            break;
        case RL_FOLLOW_RETRY:
            c = slot_conn(g, slot, maps, &last);
            break;
        default: /* RL_FOLLOW_MOVE_ON: in the form that is safe to repeat (the old master may have taken it) */
            if (refresh(g, maps, &last) != RL_OK) {
                return;
            }
            c = slot_conn(g, slot, maps, &last);
            if (c != NULL && rl_endpoint_same_node(&c->ep, &was->ep)) {
                return; /* the cluster still names it: its failure stands */
            }
            again.repeat = 1;
            break;
        }
        if (c == NULL) {
            return;
        }
        if (again.prefix == NULL) {
            point(g, c);
        }
        if (sent_on->role == RL_ROLE_WAIT) {
            if ((c = node_conn(g, c->ep.host, c->ep.port, RL_ROLE_WAIT)) == NULL) {
                rl_error_set(&last, RL_E_NOMEM, "out of memory");
                rl_vote_set_error(vote, &last);
                return;
            }
            rl_conn_set_limits(c, &sent_on->limits);
        }
        if (t->stop_at_us) { /* a blocking read blocks only until its stop time, as it was sent */
            int64_t left_ms = (t->stop_at_us - rl_now_us()) / 1000;
            if (left_ms < 1) {
                return;
            }
            again.block_ms = left_ms;
        }
        again.narrow = st.one_key == 1;
        rl_node_run_one(&again, vote, c, t);
        if (again.narrow && vote->err.code == RL_OK) {
            if (vote->value != -1) {
                COUNT(one_key_releases);
                vote->one_key = 1; /* the caller's log says so */
                return;
            }
            /* a shared lock: its holders are another key, so the
             * migration is waited out as for any script of several keys */
            st.one_key = -1;
            rl_vote_set_error(vote, &tryagain);
        }
    }
}

static size_t masters(rl_node *n, unsigned *slots, size_t max, const rl_timeouts *lookup, rl_error *err)
{
    cluster_node *g = (cluster_node *)n;
    cluster_map *cm = map_of(g);
    unsigned char seen[RL_SLOT_MAX_NODES] = {0};
    size_t found = 0;
    unsigned slot;

    if (cm == NULL) {
        rl_error_set(err, RL_E_NOMEM, "out of memory");
        return 0;
    }
    if (!cm->known && refresh(g, lookup, err) != RL_OK) {
        return 0;
    }
    for (slot = 0; slot < RL_SLOT_COUNT && found < max; slot++) {
        int idx = rl_slot_map_node(&cm->map, slot);
        if (idx >= 0 && !seen[idx]) {
            seen[idx] = 1;
            slots[found++] = slot;
        }
    }
    if (found == 0) {
        rl_error_set(err, RL_E_NO_SLOT_MAP, "the slot map names no master");
    }
    return found;
}

static const rl_node_ops cluster_ops = {
    .kind = "cluster",
    .route = route,
    .follow = follow,
    .wait_conn = wait_conn,
    .same = same,
    .same_because = "a seed in common",
    .free = free_node,
    .masters = masters,
};

rl_node *rl_cluster_node_new(const rl_endpoint *seeds, size_t n, const rl_conn_source *conns, rl_topology_cache *cache)
{
    cluster_node *g = calloc(1, sizeof *g);
    char name[300];
    size_t i, len = 0;

    if (g == NULL) {
        return NULL;
    }
    g->base.ops = &cluster_ops;
    g->base.conns = conns;
    g->maps = &cache->maps;
    if ((g->seeds = calloc(n, sizeof *g->seeds)) == NULL || rl_endpoint_copy(&g->tpl, &seeds[0]) != 0) {
        goto oom;
    }
    free(g->tpl.host); /* the nodes log in and talk TLS as the first seed does */
    g->tpl.host = NULL;
    for (i = 0; i < n; i++) {
        if ((g->seeds[i] = conns->get(&seeds[i], RL_ROLE_COMMAND)) == NULL) {
            goto oom;
        }
        g->ns = i + 1;
        len += strlen(g->seeds[i]->name) + 1;
    }
    /* the cache key: every seed's name, then the scheme */
    if ((g->cache_key = malloc(len + 3)) == NULL) {
        goto oom;
    }
    for (i = 0, len = 0; i < n; i++) {
        size_t l = strlen(g->seeds[i]->name) + 1; /* with its NUL */
        memcpy(g->cache_key + len, g->seeds[i]->name, l);
        len += l;
    }
    memcpy(g->cache_key + len, g->tpl.tls ? "tls" : "tcp", 3);
    g->cache_key_len = len + 3;
    snprintf(name, sizeof name, "cluster %.200s%s", g->seeds[0]->name, n > 1 ? ", ..." : "");
    if ((g->placeholder = rl_placeholder_new(name)) == NULL) {
        goto oom;
    }
    g->base.conn = g->placeholder;
    return &g->base;
oom:
    free_node(&g->base);
    return NULL;
}
