/* The node layer without PHP: the error value, the per-thread string map,
 * and rl_nodes_run() over the three kinds of node, against addresses where
 * nothing listens (a refused connection is a real fault, no server needed). */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "../base/rl_error.h"
#include "../base/rl_status.h"
#include "../base/rl_strmap.h"
#include "../topology/rl_node.h"
#include "../topology/rl_node_cluster.h"
#include "../topology/rl_node_sentinel.h"
#include "../lock/rl_op.h"
#include "../lock/rl_lockops.h"
#include <hiredis/hiredis.h>

static const rl_timeouts quick = {.connect_us = 500000, .reply_us = 500000};
static rl_topology_cache cache; /* as a thread's module globals keep it */

static rl_endpoint refused(int port)
{
    /* port 1 on loopback: nothing listens there, the kernel refuses at once */
    rl_endpoint ep = {.host = "127.0.0.1", .port = port};
    return ep;
}

UNIT_TEST(error_value_cut_visibly)
{
    rl_error e;
    char long_name[400];
    size_t i;

    CHECK(rl_error_set(&e, RL_E_NO_MASTER, "no master: %s", "a") == RL_E_NO_MASTER && e.code == RL_E_NO_MASTER,
          "set returns and stores the code");
    rl_error_append(&e, "; %s", "b");
    CHECK(strcmp(e.msg, "no master: a; b") == 0, "appended: %s", e.msg);
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    rl_error_append(&e, "; %s", long_name);
    CHECK(strlen(e.msg) == RL_ERRLEN - 1 && strcmp(e.msg + RL_ERRLEN - 4, "...") == 0,
          "a message past the buffer ends in ...: %zu bytes", strlen(e.msg));
    rl_error_append(&e, "tail");
    CHECK(strstr(e.msg, "tail") == NULL && strcmp(e.msg + RL_ERRLEN - 4, "...") == 0, "nothing after the cut");
    /* exactly full: kept whole, no ellipsis */
    for (i = 0; i < RL_ERRLEN - 1; i++) {
        long_name[i] = 'y';
    }
    long_name[RL_ERRLEN - 1] = '\0';
    rl_error_set(&e, RL_E_IO, "%s", long_name);
    CHECK(strlen(e.msg) == RL_ERRLEN - 1 && e.msg[RL_ERRLEN - 2] == 'y', "a message that fits is not cut");
}

UNIT_TEST(strmap_keeps_values_in_place)
{
    rl_strmap m = {0};
    int *a = malloc(sizeof *a), *b = malloc(sizeof *b), *c = malloc(sizeof *c);
    *a = 1;
    *b = 2;
    *c = 3;
    CHECK(rl_strmap_put(&m, "k\0one", 5, a) == 0 && rl_strmap_put(&m, "k\0two", 5, b) == 0, "put");
    CHECK(rl_strmap_get(&m, "k\0one", 5) == a && rl_strmap_get(&m, "k\0two", 5) == b,
          "keys with NUL bytes are told apart");
    CHECK(rl_strmap_get(&m, "k", 1) == NULL, "a prefix is another key");
    rl_strmap_put(&m, "k\0one", 5, c); /* replaces (and frees) a */
    CHECK(rl_strmap_get(&m, "k\0one", 5) == c, "replaced");
    rl_strmap_del(&m, "k\0two", 5);
    CHECK(rl_strmap_get(&m, "k\0two", 5) == NULL && rl_strmap_get(&m, "k\0one", 5) == c, "deleted one");
    rl_strmap_clear(&m);
    CHECK(m.head == NULL && rl_strmap_get(&m, "k\0one", 5) == NULL, "cleared (ASan: nothing leaked)");
}

UNIT_TEST(direct_node_identity_and_wait_conn)
{
    rl_endpoint ep = refused(1), other = refused(2);
    rl_node *a = rl_direct_node_new(&ep, &rl_own_conns), *b = rl_direct_node_new(&ep, &rl_own_conns);
    rl_node *c = rl_direct_node_new(&other, &rl_own_conns);
    rl_conn *w;

    CHECK(a && b && c, "made");
    CHECK(a->ops->same(a, b) && !a->ops->same(a, c), "same endpoint: same node; another port: not");
    CHECK(a->ops->same_because == NULL, "a server is the same server, no more to say");
    w = a->ops->wait_conn(a);
    CHECK(w != NULL && w != a->conn && w->role == RL_ROLE_WAIT && a->ops->wait_conn(a) == w,
          "one waiting connection, made once, apart from the command connection");
    a->ops->free(a);
    b->ops->free(b);
    c->ops->free(c);
}

/* A node kind that fails its routing, to see rl_nodes_run() leave it out. */
static rl_conn *unrouted_conn;
static int follow_calls;

static int route_fails(rl_node *n, const char *key, size_t key_len, const rl_timeouts *t, rl_error *err)
{
    (void)key;
    (void)key_len;
    (void)t;
    n->conn = unrouted_conn;
    return rl_error_set(err, RL_E_NO_SLOT_MAP, "no map for you");
}

static void follow_counts(rl_node *n, const rl_op *op, rl_vote *vote, const rl_timeouts *t, const rl_timeouts *lookup)
{
    (void)lookup;
    (void)n;
    (void)op;
    (void)vote;
    (void)t;
    follow_calls++;
}

UNIT_TEST(nodes_run_routes_asks_follows)
{
    rl_node_ops failing = {.kind = "test", .route = route_fails, .follow = follow_counts};
    rl_node_ops following = {.kind = "test", .follow = follow_counts};
    rl_endpoint ep = refused(1);
    rl_conn *c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    rl_node bad = {.ops = &failing, .conns = &rl_own_conns},
            good = {.ops = &following, .conn = c, .conns = &rl_own_conns};
    rl_node *nodes[3] = {&good, &bad, &good};
    rl_vote votes[3];
    rl_lock_op lock = {.kind = RL_OP_LOCK, .key = "k", .key_len = 1, .token = "t", .token_len = 1, .ttl_ms = 1000};
    rl_op op = rl_lock_eop(&lock);
    size_t yes;

    unrouted_conn = rl_placeholder_new("test node");
    follow_calls = 0;
    memset(votes, 0, sizeof votes);
    yes = rl_nodes_run(nodes, 3, &op, votes, 2, 0, &quick, &quick);
    CHECK(yes == 0, "nobody said yes");
    CHECK(votes[1].err.code == RL_E_NO_SLOT_MAP && strcmp(votes[1].err.msg, "no map for you") == 0
              && votes[1].conn == unrouted_conn && !votes[1].sent,
          "the unrouted node's vote is its routing error");
    CHECK(votes[0].err.code == RL_E_CONNECT && votes[0].conn == c, "the routed nodes were asked: refused (%d %s)",
          votes[0].err.code, votes[0].err.msg);
    CHECK(follow_calls == 2, "follow runs for the asked nodes only: %d", follow_calls);
    CHECK(strcmp(unrouted_conn->name, "test node") == 0 && unrouted_conn->ep.port == 0, "a placeholder names a node");
    rl_conn_free(unrouted_conn);
    rl_conn_free(c);
}

/* A node of several masters (a Cluster's kind: masters is set) and what
 * its follow was given, to see rl_nodes_run() mark the op RL_ROUTE_SLOTS. */
static unsigned followed_flags;

static size_t no_masters(rl_node *n, unsigned *slots, size_t max, const rl_timeouts *lookup, rl_error *err)
{
    (void)n;
    (void)slots;
    (void)max;
    (void)lookup;
    return rl_error_set(err, RL_E_NO_SLOT_MAP, "none"), 0;
}

static void follow_notes_flags(rl_node *n, const rl_op *op, rl_vote *vote, const rl_timeouts *t,
                               const rl_timeouts *lookup)
{
    (void)n;
    (void)vote;
    (void)t;
    (void)lookup;
    followed_flags = op->flags;
}

/* The bytes the lock family writes for op as the engine sends it (flags
 * and all), on a connection whose server has MSETEX. */
static int writes_msetex(const rl_op *e)
{
    rl_endpoint ep = refused(1);
    rl_conn *c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    int msetex, eval;
    c->caps.msetex = 1;
    CHECK(rl_lock_family.append(c, e, RL_FORM_FIRST, 1) >= 0, "appended");
    msetex = memmem(c->out, c->out_len, "MSETEX", 6) != NULL;
    eval = memmem(c->out, c->out_len, "EVALSHA", 7) != NULL;
    CHECK(msetex != eval, "one form or the other: '%.*s'", (int)c->out_len, c->out);
    rl_conn_free(c);
    return msetex;
}

/* Valkey 9.1 runs MSETEX on a node that does not serve its keys' slot (no
 * MOVED): on a Cluster lockMany() takes its script, whose keys are checked;
 * elsewhere MSETEX where the server has it. */
UNIT_TEST(cluster_lock_many_never_msetex)
{
    rl_node_ops cluster_like = {.kind = "test", .follow = follow_notes_flags, .masters = no_masters};
    rl_node_ops single = {.kind = "test", .follow = follow_notes_flags};
    rl_endpoint ep = refused(1);
    rl_conn *c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    rl_node node = {.ops = &cluster_like, .conn = c, .conns = &rl_own_conns};
    rl_node *nodes[1] = {&node};
    rl_vote votes[1];
    const char *keys[2] = {"lock:{a}1", "lock:{a}2"};
    size_t lens[2] = {9, 9};
    rl_lock_op many = {.kind = RL_OP_LOCK_MANY,
                       .key = keys[0],
                       .key_len = 9,
                       .token = "t",
                       .token_len = 1,
                       .ttl_ms = 1000,
                       .keys = keys,
                       .key_lens = lens,
                       .nkeys = 2};
    rl_op op = rl_lock_eop(&many);

    memset(votes, 0, sizeof votes);
    followed_flags = 0;
    rl_nodes_run(nodes, 1, &op, votes, 1, 0, &quick, &quick);
    CHECK(followed_flags & RL_ROUTE_SLOTS, "a Cluster's op is marked: flags %u", followed_flags);
    CHECK(!(op.flags & RL_ROUTE_SLOTS), "on a copy: the caller's op is left as it was");
    op.flags = followed_flags;
    CHECK(!writes_msetex(&op), "a Cluster's lockMany() is the script");

    node.ops = &single;
    memset(votes, 0, sizeof votes);
    op = rl_lock_eop(&many);
    rl_nodes_run(nodes, 1, &op, votes, 1, 0, &quick, &quick);
    CHECK(!(followed_flags & RL_ROUTE_SLOTS), "one server's op is not: flags %u", followed_flags);
    CHECK(writes_msetex(&op), "one server's lockMany() is MSETEX where it has it");

    /* a Cluster's script refused (an ACL without scripts) is not MSETEX
     * refused: the connection keeps what it knows of MSETEX */
    {
        rl_lock_op cl = many;
        rl_result res;
        char err[256];
        void *refused = UNIT_REPLY("-NOPERM User u has no permissions to run the 'evalsha' command\r\n");
        cl.by_slot = 1;
        c->caps.msetex = 1;
        memset(&res, 0, sizeof res);
        CHECK(rl_lock_op_judge(&cl, c, refused, &res, err, sizeof err) != RL_REPLY_NOSCRIPT && c->caps.msetex == 1,
              "the script's refusal stands: caps.msetex %d", c->caps.msetex);
        freeReplyObject(refused);
    }
    rl_conn_free(c);
}

UNIT_TEST(sentinel_node_names_every_sentinel)
{
    rl_endpoint sentinels[2] = {refused(1), refused(2)}, tpl = {0};
    rl_sentinel_spec spec
        = {.service = "mymaster", .service_len = 8, .sentinels = sentinels, .n = 2, .master_tpl = &tpl};
    rl_sentinel_spec other = spec;
    rl_node *a = rl_sentinel_node_new(&spec, &rl_own_conns, &cache), *b, *c;
    rl_error err;
    rl_vote vote;
    rl_lock_op lock = {.kind = RL_OP_LOCK, .key = "k", .key_len = 1},
               leave = {.kind = RL_OP_LEAVE, .key = "k", .key_len = 1};
    rl_op op = rl_lock_eop(&lock);

    other.sentinels = &sentinels[1];
    other.n = 1;
    b = rl_sentinel_node_new(&other, &rl_own_conns, &cache);
    other.service = "another";
    other.service_len = 7;
    c = rl_sentinel_node_new(&other, &rl_own_conns, &cache);
    CHECK(a && b && c, "made");
    CHECK(strcmp(a->conn->name, "sentinel service \"mymaster\"") == 0, "named before routing: %s", a->conn->name);
    CHECK(a->ops->same(a, b) && !a->ops->same(a, c), "a sentinel and the service in common: the same group");
    CHECK(a->ops->route(a, "k", 1, &quick, &err) == RL_E_NO_MASTER, "no sentinel answers: code 14");
    CHECK(strstr(err.msg, "no sentinel knows the master of \"mymaster\": 127.0.0.1:1: ") == err.msg
              && strstr(err.msg, "; 127.0.0.1:2: ") != NULL,
          "every sentinel named: %s", err.msg);
    CHECK(a->conn->ep.port == 0 && strcmp(a->conn->name, "sentinel service \"mymaster\"") == 0,
          "left at its placeholder");
    /* a failover sign on a lock command asks the sentinels again */
    memset(&vote, 0, sizeof vote);
    vote.conn = a->conn;
    vote.err.code = RL_E_IO;
    a->ops->follow(a, &op, &vote, &quick, &quick);
    CHECK(vote.err.code == RL_E_NO_MASTER, "a lost master is looked for again: %d", vote.err.code);
    /* a waiter's own queue entries stay where they were: not moved */
    op = rl_lock_eop(&leave);
    memset(&vote, 0, sizeof vote);
    vote.conn = a->conn;
    vote.err.code = RL_E_IO;
    a->ops->follow(a, &op, &vote, &quick, &quick);
    CHECK(vote.err.code == RL_E_IO, "LEAVE is not moved to another master: %d", vote.err.code);
    a->ops->free(a);
    b->ops->free(b);
    c->ops->free(c);
    rl_topology_cache_free(&cache);
}

UNIT_TEST(cluster_node_names_every_seed)
{
    rl_endpoint seeds[2] = {refused(1), refused(2)};
    rl_node *a = rl_cluster_node_new(seeds, 2, &rl_own_conns, &cache),
            *b = rl_cluster_node_new(&seeds[1], 1, &rl_own_conns, &cache);
    rl_node *c = rl_cluster_node_new(seeds, 1, &rl_own_conns, &cache);
    rl_error err;

    CHECK(a && b && c, "made");
    CHECK(strcmp(a->conn->name, "cluster 127.0.0.1:1, ...") == 0, "named before routing: %s", a->conn->name);
    CHECK(a->ops->same(a, b) && a->ops->same(a, c) && !b->ops->same(b, c), "a seed in common: the same cluster");
    CHECK(a->ops->route(a, "k", 1, &quick, &err) == RL_E_NO_SLOT_MAP, "no seed answers: code 15");
    CHECK(strstr(err.msg, "no node answered with a slot map covering every slot: 127.0.0.1:1: ") == err.msg
              && strstr(err.msg, "; 127.0.0.1:2: ") != NULL,
          "every seed named: %s", err.msg);
    CHECK(a->ops->wait_conn(a) == a->conn, "unrouted: its waits go where its commands go (and fail alike)");
    rl_topology_counts tc;
    rl_topology_counts_get(&tc);
    CHECK(tc.map_refreshes >= 1, "the refresh was counted");
    a->ops->free(a);
    b->ops->free(b);
    c->ops->free(c);
    rl_topology_cache_free(&cache);
}

static size_t two_masters(rl_node *n, unsigned *slots, size_t max, const rl_timeouts *lookup, rl_error *err)
{
    (void)n;
    (void)lookup;
    (void)err;
    if (max >= 2) {
        slots[0] = 0;
        slots[1] = 9000;
    }
    return 2;
}

/* Keys in several slots cannot go in one command to a node of several
 * masters; to a node of one master they always can. */
UNIT_TEST(nodes_split_keys)
{
    rl_node_ops one = {.kind = "server"}, several = {.kind = "cluster", .masters = two_masters};
    rl_node server = {.ops = &one}, cluster = {.ops = &several};
    rl_node *servers[2] = {&server, &server}, *mixed[2] = {&server, &cluster};
    const char *apart[2] = {"a", "b"}, *together[2] = {"{t}a", "{t}b"};
    size_t lens[2] = {1, 1}, tagged[2] = {4, 4};

    CHECK(!rl_nodes_split_keys(servers, 2, apart, lens, 2), "servers: one command holds them all");
    CHECK(rl_nodes_split_keys(mixed, 2, apart, lens, 2), "a cluster among the nodes, keys in two slots: split");
    CHECK(!rl_nodes_split_keys(mixed, 2, together, tagged, 2), "a cluster, keys of one hash tag: together");
    CHECK(!rl_nodes_split_keys(mixed, 2, apart, lens, 1), "one key: together");
}
