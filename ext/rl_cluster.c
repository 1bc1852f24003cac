#include "rl_cluster.h"
#include "php_redislock.h"
#include "rl_pool.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"
#include "src/base/rl_clock.h"
#include "src/base/rl_status.h"
#include "rl_errors.h"
#include "src/topology/rl_slots.h"

/* Redirections (MOVED, ASK) one call follows at once; past them (nodes
 * that disagree while a failover is gossiped) it pauses and looks again,
 * as for TRYAGAIN and CLUSTERDOWN, for as long as the call's timeout
 * allows, then gives up with RL_E_REDIRECTS. */
#define MAX_HOPS 5
/* Pause before retrying TRYAGAIN / CLUSTERDOWN (within the call's timeout). */
#define RETRY_PAUSE_US 25000
/* Nodes asked at once for the slot map: the seeds, then the map's masters. */
#define MAX_ASKED 16

/* A cluster's slot map, per process (per thread on a ZTS PHP: RLG(cluster_maps));
 * updated in place, never freed before GSHUTDOWN (or MSHUTDOWN), after the
 * thread's last request, so a group may keep a pointer to it. */
typedef struct rl_cmap {
    rl_slot_map map;
    int known;          /* filled at least once */
    unsigned gen;       /* changes with every change of the map */
} rl_cmap;

/* Master connections by their index in the map, for the first masters: a
 * routed key costs a CRC16 and two array reads. */
#define NODE_CACHE 16

struct rl_cgroup {
    rl_conn **seeds;    /* pooled (persistent) or ours */
    size_t ns;
    rl_endpoint tpl;    /* the nodes' user, password and TLS; no address */
    rl_conn *placeholder; /* never connected: names the cluster in messages */
    rl_conn **known;    /* connections to nodes made so far (both roles) */
    size_t nknown, cap;
    bool persistent;    /* known and seeds are the pool's */
    char *cache_key;
    size_t cache_key_len;
    rl_cmap *cm;        /* RLG(cluster_maps)'s entry, once looked up */
    rl_conn *by_node[NODE_CACHE]; /* command connection of map node i... */
    unsigned by_node_gen;         /* ...valid while cm->gen is this */
};

static void free_cmap(zval *zv)
{
    free(Z_PTR_P(zv));
}

void rl_cluster_init(HashTable *table)
{
    zend_hash_init(table, 4, NULL, free_cmap, 1);
}

void rl_cluster_shutdown(HashTable *table)
{
    zend_hash_destroy(table);
}

void rl_cluster_counters(zend_ulong *redirects, zend_ulong *refreshes)
{
    *redirects = RL_STAT(cluster_redirects);
    *refreshes = RL_STAT(cluster_map_refreshes);
}

static bool is_redis_cluster(zval *server)
{
    zend_class_entry *ce = zend_hash_str_find_ptr(EG(class_table), "rediscluster", 12);
    return ce != NULL && Z_TYPE_P(server) == IS_OBJECT && instanceof_function(Z_OBJCE_P(server), ce);
}

bool rl_cluster_is_form(zval *server)
{
    ZVAL_DEREF(server);
    return (Z_TYPE_P(server) == IS_ARRAY && zend_hash_str_exists(Z_ARRVAL_P(server), "cluster", 7))
        || is_redis_cluster(server);
}

/* A phpredis \RedisCluster: its masters (_masters(): [[host, port], ...])
 * as the seed list, in *seeds (an array the caller frees). phpredis does
 * not let its password or timeouts be read: those come from $options. */
static zend_result redis_cluster_seeds(zval *obj, zval *seeds, uint32_t argnum, const char *what)
{
    zend_function *fn = zend_hash_str_find_ptr_lc(&Z_OBJCE_P(obj)->function_table, "_masters", 8);
    zval ret, *m;

    ZVAL_UNDEF(seeds);
    if (fn == NULL) {
        zend_argument_value_error(argnum, "%smust be a connected RedisCluster object", what);
        return FAILURE;
    }
    ZVAL_UNDEF(&ret);
    zend_call_known_instance_method_with_0_params(fn, Z_OBJ_P(obj), &ret);
    if (EG(exception)) {
        zval_ptr_dtor(&ret);
        return FAILURE;
    }
    array_init(seeds);
    if (Z_TYPE(ret) == IS_ARRAY) {
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL(ret), m) {
            zval *host, *port, one;
            ZVAL_DEREF(m);
            if (Z_TYPE_P(m) != IS_ARRAY || (host = zend_hash_index_find(Z_ARRVAL_P(m), 0)) == NULL
                || (port = zend_hash_index_find(Z_ARRVAL_P(m), 1)) == NULL || Z_TYPE_P(host) != IS_STRING
                || Z_TYPE_P(port) != IS_LONG) {
                continue;
            }
            array_init(&one);
            add_assoc_str(&one, "host", zend_string_copy(Z_STR_P(host)));
            add_assoc_long(&one, "port", Z_LVAL_P(port));
            add_next_index_zval(seeds, &one);
        } ZEND_HASH_FOREACH_END();
    }
    zval_ptr_dtor(&ret);
    if (zend_hash_num_elements(Z_ARRVAL_P(seeds)) == 0) {
        zval_ptr_dtor(seeds);
        ZVAL_UNDEF(seeds);
        zend_argument_value_error(argnum, "%smust be a connected RedisCluster object (it knows no master)", what);
        return FAILURE;
    }
    return SUCCESS;
}

rl_conn *rl_cluster_placeholder(rl_cgroup *g)
{
    return g->placeholder;
}

void rl_cluster_free(rl_cgroup *g)
{
    size_t i;
    if (g == NULL) {
        return;
    }
    for (i = 0; i < g->ns && !g->persistent; i++) {
        rl_conn_free(g->seeds[i]);
    }
    for (i = 0; i < g->nknown && !g->persistent; i++) {
        rl_conn_free(g->known[i]);
    }
    rl_conn_free(g->placeholder);
    rl_endpoint_clear(&g->tpl);
    free(g->seeds);
    free(g->known);
    free(g->cache_key);
    free(g);
}

static rl_cgroup *cluster_new(zval *server, const rl_settings *s, bool persistent, uint32_t argnum, const char *what);

rl_cgroup *rl_cluster_new(zval *server, const rl_settings *s, bool persistent, uint32_t argnum, const char *what)
{
    zval seeds, form;
    rl_cgroup *g;

    ZVAL_DEREF(server);
    if (!is_redis_cluster(server)) {
        return cluster_new(server, s, persistent, argnum, what);
    }
    if (redis_cluster_seeds(server, &seeds, argnum, what) == FAILURE) {
        return NULL;
    }
    array_init(&form);
    add_assoc_zval(&form, "cluster", &seeds);
    g = cluster_new(&form, s, persistent, argnum, what);
    zval_ptr_dtor(&form);
    return g;
}

static rl_cgroup *cluster_new(zval *server, const rl_settings *s, bool persistent, uint32_t argnum, const char *what)
{
    HashTable *ht;
    zval *seeds;
    zend_string *key;
    rl_cgroup *g;
    rl_endpoint ph = {0};
    smart_str ck = {0};
    size_t i, n;

    ht = Z_ARRVAL_P(server);
    ZEND_HASH_FOREACH_STR_KEY(ht, key) {
        if (key == NULL || !zend_string_equals_literal(key, "cluster")) {
            zend_argument_value_error(argnum, "%smust be a cluster with only the key \"cluster\" (its seed "
                                      "nodes; options such as the password go in $options)", what);
            return NULL;
        }
    } ZEND_HASH_FOREACH_END();
    seeds = zend_hash_str_find_deref(ht, "cluster", 7);
    if (seeds == NULL || Z_TYPE_P(seeds) != IS_ARRAY || zend_hash_num_elements(Z_ARRVAL_P(seeds)) == 0
        || !zend_array_is_list(Z_ARRVAL_P(seeds))) {
        zend_argument_value_error(argnum, "%s[\"cluster\"] must be a non-empty list of seed node addresses", what);
        return NULL;
    }
    n = zend_hash_num_elements(Z_ARRVAL_P(seeds));
    g = calloc(1, sizeof *g);
    if (g == NULL || (g->seeds = calloc(n, sizeof *g->seeds)) == NULL) {
        free(g);
        rl_throw_status(RL_E_NOMEM, "out of memory");
        return NULL;
    }
    g->persistent = persistent;
    for (i = 0; i < n; i++) {
        char w[96];
        rl_endpoint ep;
        zval *one = zend_hash_index_find(Z_ARRVAL_P(seeds), (zend_ulong)i);
        snprintf(w, sizeof w, "%s[\"cluster\"][%zu] ", what, i);
        if (Z_TYPE_P(one) == IS_ARRAY && (rl_cluster_is_form(one)
                                          || zend_hash_str_exists(Z_ARRVAL_P(one), "sentinels", 9))) {
            zend_argument_value_error(argnum, "%smust be a node address, not a group of nodes", w);
            goto fail;
        }
        if (rl_endpoint_from_zval(&ep, one, s, argnum, w) == FAILURE) {
            goto fail;
        }
        if (ep.unix_path != NULL || ep.database != 0) {
            zend_argument_value_error(argnum, ep.unix_path ? "%smust be a TCP address: cluster nodes name "
                                      "each other by host and port" : "%smust not select a database: a "
                                      "cluster has only database 0", w);
            rl_endpoint_clear(&ep);
            goto fail;
        }
        if (i == 0) { /* the nodes log in and talk TLS as the first seed does */
            if (rl_endpoint_copy(&g->tpl, &ep) != 0) {
                rl_endpoint_clear(&ep);
                goto oom;
            }
            free(g->tpl.host);
            g->tpl.host = NULL;
        } else if (ep.tls != g->tpl.tls) {
            zend_argument_value_error(argnum, "%suses %s, the first seed does not: give every seed the same "
                                      "scheme", w, ep.tls ? "TLS" : "plaintext");
            rl_endpoint_clear(&ep);
            goto fail;
        }
        g->seeds[i] = persistent ? rl_pool_get(&ep, RL_ROLE_COMMAND) : rl_conn_new(&ep, RL_ROLE_COMMAND);
        rl_endpoint_clear(&ep);
        if (g->seeds[i] == NULL) {
            goto oom;
        }
        g->ns = i + 1;
        smart_str_appendl(&ck, g->seeds[i]->name, strlen(g->seeds[i]->name));
        smart_str_appendc(&ck, '\0');
    }
    smart_str_appends(&ck, g->tpl.tls ? "tls" : "tcp");
    smart_str_0(&ck);
    g->cache_key = malloc(ZSTR_LEN(ck.s));
    if (g->cache_key == NULL) {
        smart_str_free(&ck);
        goto oom;
    }
    memcpy(g->cache_key, ZSTR_VAL(ck.s), ZSTR_LEN(ck.s));
    g->cache_key_len = ZSTR_LEN(ck.s);
    smart_str_free(&ck);

    ph.host = "";
    ph.port = 0;
    g->placeholder = rl_conn_new(&ph, RL_ROLE_COMMAND);
    if (g->placeholder == NULL) {
        goto oom;
    }
    snprintf(g->placeholder->name, sizeof g->placeholder->name, "cluster %.200s%s", g->seeds[0]->name,
             n > 1 ? ", ..." : "");
    return g;
oom:
    rl_throw_status(RL_E_NOMEM, "out of memory");
fail:
    smart_str_free(&ck); /* a seed refused after others were named */
    rl_cluster_free(g);
    return NULL;
}

/* The group's connection to host:port in role (the pool's, or one it owns). */
static rl_conn *node_conn(rl_cgroup *g, const char *host, int port, rl_conn_role role)
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
    c = g->persistent ? rl_pool_get(&ep, role) : rl_conn_new(&ep, role);
    rl_endpoint_clear(&ep);
    if (c != NULL) {
        g->known[g->nknown++] = c;
    }
    return c;
}

rl_conn *rl_cluster_wait_conn(rl_cgroup *g, rl_conn *c)
{
    if (c == g->placeholder || c->ep.host == NULL) {
        return NULL;
    }
    return node_conn(g, c->ep.host, c->ep.port, RL_ROLE_WAIT);
}

static rl_cmap *cmap_of(rl_cgroup *g)
{
    if (g->cm == NULL) {
        g->cm = zend_hash_str_find_ptr(&RLG(cluster_maps), g->cache_key, g->cache_key_len);
        if (g->cm == NULL && (g->cm = calloc(1, sizeof *g->cm)) != NULL) {
            rl_slot_map_clear(&g->cm->map);
            zend_hash_str_add_new_ptr(&RLG(cluster_maps), g->cache_key, g->cache_key_len, g->cm);
        }
    }
    return g->cm;
}

/* CLUSTER SLOTS answers are bigger than lock replies: the asked connections
 * take them under raised limits, put back after. */
static void raise_limits(rl_conn *c)
{
    c->limits.max_elements = RL_SLOT_COUNT;      /* one range per slot at worst */
    c->limits.max_reply = 16 * 1024 * 1024;      /* 16384 ranges of a few hundred bytes */
}

/* Asks the seeds and the map's masters at once for the slot map (the first
 * complete one wins). 0, or RL_E_NO_SLOT_MAP with every node's answer in err. */
static int refresh(rl_cgroup *g, const rl_timeouts *t, char *err, size_t errlen)
{
    rl_cmap *cm = cmap_of(g);
    rl_conn *asked[MAX_ASKED];
    rl_vote votes[MAX_ASKED];
    rl_op op = {.kind = RL_OP_CLUSTER_SLOTS};
    rl_slot_map *fresh;
    size_t i, j, n = 0;

    if (cm == NULL || (fresh = malloc(sizeof *fresh)) == NULL) {
        snprintf(err, errlen, "out of memory");
        return RL_E_NOMEM;
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
    for (i = 0; i < n; i++) {
        votes[i].conn = asked[i];
        raise_limits(asked[i]);
    }
    op.slot_map = fresh;
    rl_fanout(&op, votes, n, 1, 1, t);
    for (i = 0; i < n; i++) {
        rl_reply_limits_default(&asked[i]->limits);
    }
    RL_COUNT(cluster_map_refreshes);
    if (!rl_slot_map_complete(fresh)) {
        smart_str msg = {0};
        const char *sep = "";
        smart_str_appends(&msg, "no node answered with a slot map covering every slot: ");
        for (i = 0; i < n; i++) {
            smart_str_append_printf(&msg, "%s%s: %s", sep, asked[i]->name,
                                    votes[i].status == RL_E_SKIPPED ? "no answer"
                                    : votes[i].err[0] ? votes[i].err : rl_status_name(votes[i].status));
            sep = "; ";
        }
        smart_str_0(&msg);
        if (ZSTR_LEN(msg.s) >= errlen) { /* cut visibly */
            snprintf(err, errlen, "%.*s...", (int)(errlen - 4), ZSTR_VAL(msg.s));
        } else {
            snprintf(err, errlen, "%s", ZSTR_VAL(msg.s));
        }
        smart_str_free(&msg);
        free(fresh);
        return RL_E_NO_SLOT_MAP;
    }
    memcpy(&cm->map, fresh, sizeof cm->map);
    cm->known = 1;
    cm->gen++;
    free(fresh);
    return 0;
}

/* The master connection of key's slot, refreshing the map when there is
 * none or it serves no master for the slot. */
static rl_conn *slot_conn(rl_cgroup *g, unsigned slot, const rl_timeouts *t, int *rc, char *err, size_t errlen)
{
    rl_cmap *cm = cmap_of(g);
    int idx;
    rl_conn *c;

    *rc = 0;
    if (cm == NULL) {
        *rc = RL_E_NOMEM;
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    idx = cm->known ? rl_slot_map_node(&cm->map, slot) : -1;
    if (idx < 0) {
        if ((*rc = refresh(g, t, err, errlen)) != 0) {
            return NULL;
        }
        if ((idx = rl_slot_map_node(&cm->map, slot)) < 0) {
            *rc = RL_E_NO_SLOT_MAP;
            snprintf(err, errlen, "no master serves slot %u", slot);
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
        *rc = RL_E_NOMEM;
        snprintf(err, errlen, "out of memory");
    } else if (idx < NODE_CACHE) {
        g->by_node[idx] = c;
    }
    return c;
}

static void point(rl_object *o, size_t i, rl_conn *c)
{
    o->conns[i] = c;
    if (o->wait_conns) {
        rl_conn *w = rl_cluster_wait_conn(o->clusters[i], c);
        if (w != NULL) {
            o->wait_conns[i] = w;
        }
    }
}

int rl_cluster_route(rl_object *o, size_t i, const char *key, size_t key_len, char *err, size_t errlen)
{
    rl_cgroup *g = o->clusters[i];
    int rc;
    rl_conn *c = slot_conn(g, rl_key_slot(key, key_len), &o->timeouts, &rc, err, errlen);
    if (c == NULL) {
        o->conns[i] = g->placeholder;
        return rc;
    }
    point(o, i, c);
    return 0;
}

static void run_one(const rl_op *op, rl_vote *vote, rl_conn *c, const rl_timeouts *t)
{
    memset(vote, 0, sizeof *vote);
    vote->conn = c;
    rl_fanout(op, vote, 1, 1, 0, t);
}

static int is_lost(int status)
{
    return status == RL_E_CONNECT || status == RL_E_TIMEOUT || status == RL_E_IO;
}


/* Pauses before asking again, when the call's timeout (from start) leaves
 * time for it; else turns the vote into RL_E_REDIRECTS ("still <doing>
 * <the last reply> after the timeout") and returns 0. */
static int pause_within(int64_t start, const rl_timeouts *t, rl_vote *vote, const char *doing)
{
    struct timespec ts = {0, RETRY_PAUSE_US * 1000L};
    char last[RL_ERRLEN];

    if (start + t->reply_us - rl_now_us() < RETRY_PAUSE_US) {
        snprintf(last, sizeof last, "%s", vote->err);
        snprintf(vote->err, sizeof vote->err, "still %s %.200s after the timeout (%lld ms)", doing, last,
                 (long long)(t->reply_us / 1000));
        vote->status = RL_E_REDIRECTS;
        return 0;
    }
    nanosleep(&ts, NULL);
    return 1;
}

void rl_cluster_follow(rl_object *o, size_t i, const rl_op *op, rl_vote *vote, const rl_timeouts *t)
{
    rl_cgroup *g = o->clusters[i];
    rl_cmap *cm;
    int64_t start;
    unsigned slot;
    int redirects = 0;
    int one_key = 0; /* 1: releasing the lock key alone; -1: that cannot be */
    char last[RL_ERRLEN], tryagain[RL_ERRLEN];

    if (vote->status == RL_OK || (vote->status != RL_E_REPLY && !is_lost(vote->status))) {
        return; /* the usual case: an answer */
    }
    cm = cmap_of(g);
    start = rl_now_us();
    slot = rl_key_slot(op->key, op->key_len);
    while (cm != NULL) {
        rl_op again = *op;
        rl_redirect rd;
        rl_conn *c = NULL;
        int kind = vote->status == RL_E_REPLY ? rl_cluster_redirect(vote->err, strlen(vote->err), &rd) : 0;
        int wait = vote->status == RL_E_REPLY ? rl_cluster_retryable(vote->err, strlen(vote->err)) : 0;
        int rc;

        if (kind == 0 && !wait && !is_lost(vote->status)) {
            return; /* an answer, or a failure that is not the map's */
        }
        if (kind) {
            const char *host = rd.same_host ? vote->conn->ep.host : rd.host;
            if (++redirects > MAX_HOPS) {
                if (!pause_within(start, t, vote, "redirected")) {
                    return;
                }
                redirects = 1; /* this one opens the next batch */
            }
            RL_COUNT(cluster_redirects);
            if (host == NULL) {
                return;
            }
            if (kind == RL_REDIRECT_MOVED) {
                /* a slot moved: the map is old, most likely for more slots
                 * than this one (a failover, a resharding): fetch it again
                 * (once a batch of redirections: masters that disagree would
                 * make it once a hop); for the slot at hand the node that
                 * gave it away is the newer word (the node the map came
                 * from may not have heard of the failover yet). A MOVED
                 * naming another slot than the key's changes nothing. */
                if (redirects == 1) {
                    refresh(g, t, last, sizeof last);
                }
                if (rd.slot == slot) {
                    rl_slot_map_set(&cm->map, rd.slot, host, rd.port);
                    cm->gen++;
                }
                c = slot_conn(g, slot, t, &rc, last, sizeof last);
            } else {
                c = node_conn(g, host, rd.port, RL_ROLE_COMMAND);
                again.asking = 1;
            }
        } else if (wait == RL_CLUSTER_TRYAGAIN && op->kind == RL_OP_UNLOCK && one_key == 0) {
            /* a release names the lock's queue, reservation and wake
             * streams too, split between the two nodes (or missing on the
             * importing one) until the migration ends: the lock key alone
             * is released at once, through ASK where it moved */
            snprintf(tryagain, sizeof tryagain, "%s", vote->err);
            one_key = 1;
            c = slot_conn(g, slot, t, &rc, last, sizeof last);
        } else if (wait) {
            /* TRYAGAIN (the keys of a slot being migrated are split between
             * two nodes) or CLUSTERDOWN (a failover under way): pause and
             * ask again, for as long as the call's timeout allows */
            if (!pause_within(start, t, vote, "answering")) {
                return;
            }
            redirects = 0; /* an ASK back to the importing node is expected: the wait bounds the loop */
            if (wait == RL_CLUSTER_DOWN) {
                refresh(g, t, last, sizeof last);
            }
            c = slot_conn(g, slot, t, &rc, last, sizeof last);
        } else {
            /* the node is gone or silent: if the map now names another
             * master for the slot, go on there, in the form that is safe to
             * repeat (the old master may have taken the command) */
            rl_conn *was = vote->conn;
            if (rl_now_us() - start > t->reply_us || refresh(g, t, last, sizeof last) != 0) {
                return; /* out of time (maps that name lost masters in turn), or no map */
            }
            c = slot_conn(g, slot, t, &rc, last, sizeof last);
            if (c == NULL || c == was) {
                return; /* the cluster still names it: its failure stands */
            }
            again.repeat = 1;
        }
        if (c == NULL) {
            return;
        }
        if (!again.asking) {
            point(o, i, c);
        }
        again.one_key = one_key == 1;
        run_one(&again, vote, c, t);
        if (again.one_key && vote->status == RL_OK) {
            if (vote->value != -1) {
                RL_COUNT(cluster_one_key_releases);
                vote->one_key = 1; /* the caller's log says so */
                return;
            }
            /* a shared lock: its holders are another key, so the
             * migration is waited out as for any script of several keys */
            one_key = -1;
            vote->status = RL_E_REPLY;
            vote->yes = 0;
            snprintf(vote->err, sizeof vote->err, "%s", tryagain);
        }
    }
}
