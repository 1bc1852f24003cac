/* What a Redis Cluster tells us, read strictly (it is a server's input):
 * MOVED/ASK redirections (as a 7.0 cluster sends them), TRYAGAIN and
 * CLUSTERDOWN, and the slot map from CLUSTER SLOTS replies and MOVEDs.
 * The key slots themselves are in unit_slots.c. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>
#include "unit.h"
#include "../topology/rl_slots.h"

static int redirect(const char *err, rl_redirect *r)
{
    return rl_cluster_redirect(err, strlen(err), r);
}

UNIT_TEST(test_slots_redirect)
{
    rl_redirect r;
    char line[400];
    static const char *const bad[] = {
        "MOVED 16384 h:1",
        "MOVED 1 h:0",
        "MOVED 1 h:65536",
        "MOVED 1 h",
        "MOVED 1 h:",
        "MOVED -1 h:1",
        "MOVED +1 h:1",
        "MOVED  1 h:1",
        "MOVED 1  h:1",
        "MOVED 1 h:1 ",
        "MOVED 1 h:1x",
        "MOVED 1 h:+1",
        "MOVED 1 h:-1",
        "MOVED 1 h/x:1",
        "MOVED 1 u@h:1",
        "MOVED 1 h x:1",
        "MOVED 1 h\tx:1",
        "MOVED 1 []:1",
        "MOVED 1 [::1:1",
        "MOVED 1 ::1]:1",
        "MOVED 1 [h]x:1",
        "MOVED 1 h:123456",
        "MOVED 123456 h:1",
        "MOVED",
        "MOVED ",
        "MOVED 1",
        "MOVED 1 ",
        "MOVEDX 1 h:1",
        "moved 1 h:1",
        "ASK",
        "ASK 1",
        "ASKING",
        "ERR unknown command",
        "",
        "MOVED 1 h\xc3\xa9:1",
        "MOVED x h:1",
        "MOVED 1 :",
        /* let through by the old rule of this file, not by the one host rule */
        "MOVED 1 h?x:1",
        "MOVED 1 h#x:1",
        "MOVED 1 a:b:1",
        "MOVED 1 [a:b]:1",
        "MOVED 1 h\"x:1",
        "MOVED 1 h%x:1",
    };
    size_t i;

    CHECK(redirect("MOVED 12182 127.0.0.1:17401", &r) == RL_REDIRECT_MOVED && r.slot == 12182
              && strcmp(r.host, "127.0.0.1") == 0 && r.port == 17401 && !r.same_host,
          "MOVED");
    CHECK(redirect("ASK 100 127.0.0.1:17401", &r) == RL_REDIRECT_ASK && r.slot == 100
              && strcmp(r.host, "127.0.0.1") == 0 && r.port == 17401,
          "ASK");
    CHECK(redirect("MOVED 12182 :17401", &r) == RL_REDIRECT_MOVED && r.same_host && r.host[0] == '\0'
              && r.port == 17401,
          "MOVED with an unknown endpoint");
    CHECK(redirect("ASK 100 :17401", &r) == RL_REDIRECT_ASK && r.same_host && r.port == 17401, "ASK, unknown endpoint");
    CHECK(redirect("MOVED 12182 node-2.example:17401", &r) == RL_REDIRECT_MOVED
              && strcmp(r.host, "node-2.example") == 0,
          "MOVED to a hostname");
    CHECK(redirect("MOVED 3999 ::1:7000", &r) == RL_REDIRECT_MOVED && strcmp(r.host, "::1") == 0 && r.port == 7000,
          "v6 without brackets: %s", r.host);
    CHECK(redirect("ASK 3999 [::1]:7000", &r) == RL_REDIRECT_ASK && strcmp(r.host, "::1") == 0 && r.port == 7000
              && !r.same_host,
          "v6 in brackets: %s", r.host);
    CHECK(redirect("MOVED 3999 fe80::1:2:3:7000", &r) == RL_REDIRECT_MOVED && strcmp(r.host, "fe80::1:2:3") == 0
              && r.port == 7000,
          "the last : splits");
    CHECK(redirect("ASK 9 [fe80::1%eth0]:7000", &r) == RL_REDIRECT_ASK && strcmp(r.host, "fe80::1%eth0") == 0,
          "v6 with a zone: %s", r.host);
    CHECK(redirect("MOVED 0 h:1", &r) == RL_REDIRECT_MOVED && r.slot == 0 && r.port == 1, "lowest slot and port");
    CHECK(redirect("MOVED 16383 h:65535", &r) == RL_REDIRECT_MOVED && r.slot == 16383 && r.port == 65535, "highest");
    CHECK(rl_cluster_redirect("MOVED 1 h:12", 11, &r) == RL_REDIRECT_MOVED && r.port == 1, "length bounds the text");
    CHECK(rl_cluster_redirect("MOVED 1 h\0x:1", 13, &r) == 0, "NUL in host");
    CHECK(rl_cluster_redirect("MOVED 1\0h:1", 11, &r) == 0, "NUL for a space");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&r, 'X', sizeof r);
        CHECK(redirect(bad[i], &r) == 0 && r.host[0] == '\0' && r.port == 0 && r.slot == 0,
              "malformed accepted or left dirty: '%s'", bad[i]);
    }
    memset(line, 'h', sizeof line);
    memcpy(line, "MOVED 7 ", 8);
    snprintf(line + 8 + 255, sizeof line - 8 - 255, ":6379");
    CHECK(redirect(line, &r) == RL_REDIRECT_MOVED && strlen(r.host) == 255 && r.port == 6379, "255-byte host");
    memset(line, 'h', sizeof line);
    memcpy(line, "MOVED 7 ", 8);
    snprintf(line + 8 + 256, sizeof line - 8 - 256, ":6379");
    CHECK(redirect(line, &r) == 0, "256-byte host");
}

UNIT_TEST(test_slots_retryable)
{
    CHECK(rl_cluster_retryable("TRYAGAIN Multiple keys request during rehashing of slot", 55) == RL_CLUSTER_TRYAGAIN,
          "TRYAGAIN");
    CHECK(rl_cluster_retryable("CLUSTERDOWN Hash slot not served", 32) == RL_CLUSTER_DOWN, "slot not served");
    CHECK(rl_cluster_retryable("CLUSTERDOWN The cluster is down", 31) == RL_CLUSTER_DOWN, "cluster down");
    CHECK(rl_cluster_retryable("CLUSTERDOWN", 11) == RL_CLUSTER_DOWN, "the word alone");
    CHECK(rl_cluster_retryable("TRYAGAINX", 9) == 0 && rl_cluster_retryable("CLUSTERDOWNED x", 15) == 0,
          "a longer word");
    CHECK(rl_cluster_retryable("TRYAGAIN", 7) == 0, "cut by the length");
    CHECK(rl_cluster_retryable("MOVED 1 h:1", 11) == 0 && rl_cluster_retryable("ERR TRYAGAIN", 12) == 0
              && rl_cluster_retryable("", 0) == 0 && rl_cluster_retryable("tryagain", 8) == 0,
          "others");
}

/* A growing RESP text for big replies. */
typedef struct text {
    char *buf;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    int n;
    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = t->cap * 2 + (size_t)n + 64;
        t->buf = realloc(t->buf, t->cap);
    }
}

static int map_len(rl_slot_map *m, const char *resp, size_t len, const char *asked, char *err)
{
    redisReply *r = unit_reply(resp, len);
    int v = r ? rl_slot_map_from_reply(m, r, asked, err, 160) : 99;
    freeReplyObject(r);
    return v;
}

static int map(rl_slot_map *m, const char *resp, const char *asked, char *err)
{
    return map_len(m, resp, strlen(resp), asked, err);
}

static int empty(const rl_slot_map *m)
{
    unsigned s;
    for (s = 0; s < 16384; s++) {
        if (m->owner[s] != RL_SLOT_UNMAPPED) {
            return 0;
        }
    }
    return m->nnodes == 0;
}

#define ID "$40\r\n76faec7640381bdbe2280861782fb582582e3a8a\r\n"
#define NODE(host, port) "*3\r\n" host "\r\n:" #port "\r\n" ID
#define RANGE1(a, b, node) "*3\r\n:" #a "\r\n:" #b "\r\n" node

UNIT_TEST(test_slots_map_reply)
{
    rl_slot_map *m = malloc(sizeof *m);
    char err[160];
    int n;

    /* two 7.0 nodes, preferred endpoint ip, hostnames in the metadata */
    CHECK(map(m,
              "*3\r\n*3\r\n:0\r\n:5460\r\n*4\r\n$9\r\n127.0.0.1\r\n:17400\r\n$"
              "40\r\n76faec7640381bdbe2280861782fb582582e3a8a\r\n*2\r\n$8\r\nhostname\r\n$14\r\nnode-1.example\r\n"
              "*3\r\n:10000\r\n:10000\r\n*4\r\n$9\r\n127.0.0.1\r\n:17400\r\n$"
              "40\r\n76faec7640381bdbe2280861782fb582582e3a8a\r\n*2\r\n$8\r\nhostname\r\n$14\r\nnode-1.example\r\n"
              "*3\r\n:12182\r\n:12182\r\n*4\r\n$9\r\n127.0.0.1\r\n:17401\r\n$"
              "40\r\n3a5e22130551effa9d9c1903165f899340195525\r\n*2\r\n$8\r\nhostname\r\n$14\r\nnode-2.example\r\n",
              "seed", err)
              == 0,
          "a 7.0 reply: %s", err);
    CHECK(m->nnodes == 2 && strcmp(m->nodes[0].host, "127.0.0.1") == 0 && m->nodes[0].port == 17400
              && m->nodes[1].port == 17401,
          "two masters, deduplicated");
    CHECK(rl_slot_map_node(m, 0) == 0 && rl_slot_map_node(m, 5460) == 0 && rl_slot_map_node(m, 10000) == 0
              && rl_slot_map_node(m, 12182) == 1,
          "owners");
    CHECK(rl_slot_map_node(m, 5461) == -1 && rl_slot_map_node(m, 16383) == -1 && rl_slot_map_node(m, 16384) == -1,
          "unmapped and out of range");
    CHECK(!rl_slot_map_complete(m), "not complete");

    /* a lone node that does not know its address sends "" */
    CHECK(map(m,
              "*2\r\n*3\r\n:0\r\n:5460\r\n*4\r\n$0\r\n\r\n:17400\r\n" ID "*0\r\n"
              "*3\r\n:10000\r\n:10000\r\n*4\r\n$0\r\n\r\n:17400\r\n" ID "*0\r\n",
              "10.0.0.5",
              err) == 0
              && m->nnodes == 1 && strcmp(m->nodes[0].host, "10.0.0.5") == 0 && rl_slot_map_node(m, 10000) == 0,
          "empty host is the asked host: %s", err);
    /* unknown-endpoint sends nil */
    CHECK(map(m,
              "*1\r\n*3\r\n:0\r\n:16383\r\n*4\r\n$-1\r\n:17400\r\n" ID
              "*4\r\n$2\r\nip\r\n$0\r\n\r\n$8\r\nhostname\r\n$14\r\nnode-1.example\r\n",
              "seed.example",
              err) == 0
              && strcmp(m->nodes[0].host, "seed.example") == 0 && rl_slot_map_complete(m),
          "nil host is the asked host, one range covers all: %s", err);
    CHECK(map(m, "*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$0\r\n\r\n:1\r\n", NULL, err) == -1 && strstr(err, "asked"),
          "empty host and no asked host: %s", err);
    CHECK(map(m, "*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$-1\r\n:1\r\n", "a/b", err) == -1, "nil host, bad asked host");
    /* "?" leaves the range unmapped */
    CHECK(map(m,
              "*2\r\n*3\r\n:0\r\n:99\r\n*3\r\n$1\r\n?\r\n:7000\r\n" ID
              "*3\r\n:100\r\n:16383\r\n*2\r\n$4\r\nh.ex\r\n:7001\r\n",
              "s",
              err) == 0
              && m->nnodes == 1 && rl_slot_map_node(m, 99) == -1 && rl_slot_map_node(m, 100) == 0
              && !rl_slot_map_complete(m),
          "? host: %s", err);
    /* masters with replicas, v6 hosts */
    CHECK(map(m,
              "*2\r\n*4\r\n:0\r\n:8191\r\n*3\r\n$3\r\n::1\r\n:7000\r\n" ID "*3\r\n$3\r\n::1\r\n:7003\r\n" ID
              "*5\r\n:8192\r\n:16383\r\n*2\r\n$3\r\n::1\r\n:7001\r\n*2\r\n$3\r\n::1\r\n:7004\r\n*2\r\n$1\r\n?\r\n:"
              "7005\r\n",
              "s",
              err) == 0
              && m->nnodes == 2 && rl_slot_map_complete(m) && strcmp(m->nodes[1].host, "::1") == 0
              && m->nodes[1].port == 7001,
          "replicas ignored: %s", err);
    /* only "?" alone is the unknown master; "??" is a host, one that no
     * user could give (a '?' may hide a password): an error */
    CHECK(map(m, "*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$2\r\n??\r\n:1\r\n", "s", err) == -1 && empty(m)
              && strstr(err, "not a host name") != NULL,
          "only ? alone is unknown: %s", err);
    CHECK(map(m, "*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$12\r\nfe80::1%eth0\r\n:1\r\n", "s", err) == 0
              && strcmp(m->nodes[0].host, "fe80::1%eth0") == 0,
          "a v6 address with its zone: %s", err);
    CHECK(map(m, "*0\r\n", "s", err) == 0 && empty(m), "no slot assigned");
    CHECK(map(m, "*1\r\n*3\r\n:5\r\n:5\r\n" NODE("$1\r\nh", 1), "s", err) == 0 && rl_slot_map_node(m, 5) == 0,
          "one slot");
    CHECK(map(m, "*1\r\n*3\r\n:16383\r\n:16383\r\n" NODE("$1\r\nh", 65535), "s", err) == 0
              && rl_slot_map_node(m, 16383) == 0 && m->nodes[0].port == 65535,
          "last slot, last port");

    /* errors, each leaving the map empty */
#define BAD(resp, what)                                                           \
    do {                                                                          \
        rl_slot_map_set(m, 1, "stale", 1);                                        \
        n = map(m, resp, "s", err);                                               \
        CHECK(n == -1 && empty(m) && err[0] != '\0', "%s: %d, %s", what, n, err); \
    } while (0)
    BAD("-ERR This instance has cluster support disabled\r\n", "error reply");
    CHECK(strcmp(err, "ERR This instance has cluster support disabled") == 0, "error text: %s", err);
    BAD(":1\r\n", "integer");
    BAD("$-1\r\n", "nil");
    BAD("*1\r\n:1\r\n", "range not an array");
    BAD("*1\r\n*2\r\n:0\r\n:1\r\n", "range without a master");
    BAD("*1\r\n*3\r\n$1\r\n0\r\n:1\r\n" NODE("$1\r\nh", 1), "start as a string");
    BAD("*1\r\n*3\r\n:0\r\n$1\r\n1\r\n" NODE("$1\r\nh", 1), "end as a string");
    BAD("*1\r\n*3\r\n:2\r\n:1\r\n" NODE("$1\r\nh", 1), "start > end");
    BAD("*1\r\n*3\r\n:-1\r\n:1\r\n" NODE("$1\r\nh", 1), "start -1");
    BAD("*1\r\n*3\r\n:0\r\n:16384\r\n" NODE("$1\r\nh", 1), "end 16384");
    BAD("*1\r\n*3\r\n:16384\r\n:16384\r\n" NODE("$1\r\nh", 1), "start 16384");
    BAD("*1\r\n*3\r\n:0\r\n:99999999999999\r\n" NODE("$1\r\nh", 1), "huge end");
    BAD("*2\r\n*3\r\n:0\r\n:10\r\n" NODE("$1\r\nh", 1) "*3\r\n:10\r\n:20\r\n" NODE("$1\r\ni", 1), "overlap");
    BAD("*2\r\n*3\r\n:0\r\n:10\r\n" NODE("$1\r\nh", 1) "*3\r\n:5\r\n:5\r\n" NODE("$1\r\n?", 1), "overlap, unknown");
    CHECK(strstr(err, "slot 5") != NULL, "names the slot: %s", err);
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n:1\r\n", "master an integer");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*1\r\n$1\r\nh\r\n", "master without a port");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*0\r\n", "empty master");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n:1\r\n:1\r\n", "host an integer");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n+h\r\n:1\r\n", "host a status");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$1\r\nh\r\n$4\r\n7000\r\n", "port a string");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$1\r\nh\r\n:0\r\n", "port 0");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$1\r\nh\r\n:65536\r\n", "port 65536");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$1\r\nh\r\n:-7000\r\n", "port negative");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*3\r\n$1\r\nh\r\n:1\r\n:5\r\n", "id an integer");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$3\r\nh/x\r\n:1\r\n", "host with /");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$3\r\nu@h\r\n:1\r\n", "host with @");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$3\r\nh x\r\n:1\r\n", "host with a space");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$5\r\n[::1]\r\n:1\r\n", "host in brackets");
    /* hosts the old rule of this file let through, that a user could not give */
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$11\r\nh?auth=pw.x\r\n:1\r\n", "host with ?");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$3\r\nh#x\r\n:1\r\n", "host with #");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$3\r\na:b\r\n:1\r\n", "host with a : not v6");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$3\r\nh!x\r\n:1\r\n", "host with !");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$3\r\nh%x\r\n:1\r\n", "host with % outside a v6 zone");
    BAD("*1\r\n*4\r\n:0\r\n:1\r\n" NODE("$1\r\nh", 1) "*2\r\n$1\r\nh\r\n:0\r\n", "replica port 0");
    BAD("*1\r\n*4\r\n:0\r\n:1\r\n" NODE("$1\r\nh", 1) ":1\r\n", "replica an integer");
    BAD("*1\r\n*4\r\n:0\r\n:1\r\n" NODE("$1\r\nh", 1) "*2\r\n$2\r\nh\x01\r\n:1\r\n",
        "replica host with a control byte");
    BAD("*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$1\r\n?\r\n:0\r\n", "unknown master, bad port");
    n = map_len(m, "*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$3\r\nh\0x\r\n:1\r\n",
                sizeof "*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$3\r\nh\0x\r\n:1\r\n" - 1, "s", err);
    CHECK(n == -1 && empty(m), "host with NUL: %s", err);
    free(m);
}

UNIT_TEST(test_slots_map_limits)
{
    rl_slot_map *m = malloc(sizeof *m);
    text t = {NULL, 0, 0};
    char err[160], host[300];
    unsigned i;
    int n;

    /* every slot a range of its own, 1024 masters */
    add(&t, "*16384\r\n");
    for (i = 0; i < 16384; i++) {
        unsigned k = i % 1024;
        add(&t, "*3\r\n:%u\r\n:%u\r\n*2\r\n$%d\r\nnode-%u\r\n:%u\r\n", i, i, 6 + (k >= 10) + (k >= 100) + (k >= 1000),
            k, 7000 + k % 3);
    }
    n = map_len(m, t.buf, t.len, "s", err);
    CHECK(n == 0 && m->nnodes == 1024 && rl_slot_map_complete(m), "16384 ranges, 1024 masters: %s", n ? err : "");
    CHECK(rl_slot_map_node(m, 1025) == 1 && strcmp(m->nodes[1].host, "node-1") == 0 && m->nodes[1].port == 7001,
          "owner of 1025");
    /* 1025 masters */
    t.len = 0;
    add(&t, "*1025\r\n");
    for (i = 0; i < 1025; i++) {
        add(&t, "*3\r\n:%u\r\n:%u\r\n*2\r\n$1\r\nh\r\n:%u\r\n", i, i, 1 + i);
    }
    n = map_len(m, t.buf, t.len, "s", err);
    CHECK(n == -1 && empty(m) && strstr(err, "1024"), "1025 masters: %s", err);
    /* 255 and 256 bytes of host */
    memset(host, 'h', sizeof host);
    t.len = 0;
    add(&t, "*1\r\n*3\r\n:0\r\n:0\r\n*2\r\n$255\r\n%.255s\r\n:1\r\n", host);
    CHECK(map_len(m, t.buf, t.len, "s", err) == 0 && strlen(m->nodes[0].host) == 255, "255-byte host");
    t.len = 0;
    add(&t, "*1\r\n*3\r\n:0\r\n:0\r\n*2\r\n$256\r\n%.256s\r\n:1\r\n", host);
    CHECK(map_len(m, t.buf, t.len, "s", err) == -1, "256-byte host");
    free(t.buf);
    free(m);
}

UNIT_TEST(test_slots_map_set)
{
    rl_slot_map *m = malloc(sizeof *m);
    char name[32];
    unsigned i;

    rl_slot_map_clear(m);
    CHECK(empty(m) && !rl_slot_map_complete(m) && rl_slot_map_node(m, 0) == -1, "cleared");
    CHECK(rl_slot_map_set(m, 12182, "127.0.0.1", 7001) == 0 && rl_slot_map_node(m, 12182) == 0, "first node");
    CHECK(rl_slot_map_set(m, 1, "127.0.0.1", 7002) == 1 && rl_slot_map_set(m, 2, "127.0.0.1", 7001) == 0
              && m->nnodes == 2,
          "same host:port is the same node");
    CHECK(rl_slot_map_set(m, 12182, "127.0.0.1", 7002) == 1 && m->nnodes == 2, "slot moved");
    CHECK(rl_slot_map_set(m, 16384, "h", 1) == -1 && rl_slot_map_set(m, 3, "h", 0) == -1
              && rl_slot_map_set(m, 3, "h", 65536) == -1 && rl_slot_map_set(m, 3, "", 1) == -1
              && rl_slot_map_set(m, 3, NULL, 1) == -1 && rl_slot_map_set(m, 3, "a/b", 1) == -1
              && rl_slot_map_set(m, 3, "a b", 1) == -1 && rl_slot_map_node(m, 3) == -1 && m->nnodes == 2,
          "invalid arguments change nothing");
    for (i = 0; i < 16384; i++) {
        rl_slot_map_set(m, i, "h", 1);
    }
    CHECK(rl_slot_map_complete(m) && rl_slot_map_node(m, 99) == 2, "complete after setting all");
    /* a full map reuses a node that serves nothing */
    rl_slot_map_clear(m);
    for (i = 0; i < RL_SLOT_MAX_NODES; i++) {
        snprintf(name, sizeof name, "n%u", i);
        CHECK(rl_slot_map_set(m, i, name, 1) == (int)i, "node %u", i);
    }
    CHECK(rl_slot_map_set(m, 5000, "x", 1) == -1 && rl_slot_map_node(m, 5000) == -1, "full: no room");
    CHECK(rl_slot_map_set(m, 7, "x", 1) == 7 && strcmp(m->nodes[7].host, "x") == 0, "the slot's own node reused");
    CHECK(rl_slot_map_set(m, 8, "n1", 1) == 1 && rl_slot_map_set(m, 5000, "y", 1) == 8 && rl_slot_map_node(m, 5000) == 8
              && rl_slot_map_node(m, 8) == 1,
          "a node left without slots reused");
    free(m);
}
