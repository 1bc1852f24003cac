/* The listing's loop (rl_scan.h) on scripted replies: pages followed to
 * the end, the cursor started again when another node answers (a
 * failover), a Cluster's every master by a hash tag of one of its slots,
 * failures, and the stop when enough names were found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>
#include "unit.h"
#include "../base/rl_status.h"
#include "../lock/rl_scan.h"
#include "../topology/rl_slots.h"

#define MAX_CALLS 8

typedef struct script {
    const char *replies[MAX_CALLS]; /* RESP, one per call; NULL: the call fails */
    rl_conn *on[MAX_CALLS];         /* the connection each call answers on */
    int calls;
    char cursors[MAX_CALLS][24], afters[MAX_CALLS][48], keys[MAX_CALLS][8];
    unsigned slots[2];
    int nslots; /* masters(): < 0 fails, 0: one master (no masters hook) */
    char names[8][16];
    int nnames, limit;
} script;

static void run(void *ctx, const rl_lock_op *op, rl_vote *vote)
{
    script *s = ctx;
    int i = s->calls++;
    rl_error err;
    redisReply *r;
    memset(vote, 0, sizeof *vote);
    snprintf(s->cursors[i], sizeof s->cursors[i], "%s", op->cursor);
    snprintf(s->afters[i], sizeof s->afters[i], "%s", op->after ? op->after : "");
    snprintf(s->keys[i], sizeof s->keys[i], "%.*s", (int)op->key_len, op->key);
    vote->conn = s->on[i];
    if (i >= MAX_CALLS || s->replies[i] == NULL) {
        rl_error_set(&err, RL_E_IO, "connection lost");
        rl_vote_set_error(vote, &err);
        return;
    }
    r = unit_reply(s->replies[i], strlen(s->replies[i]));
    vote->err.code = rl_op_judge(op, r, &vote->result, vote->err.msg, sizeof vote->err.msg) == RL_REPLY_YES
                         ? RL_OK
                         : RL_E_REPLY;
    vote->yes = vote->err.code == RL_OK;
    freeReplyObject(r);
}

static size_t masters(void *ctx, unsigned *slots, size_t max, rl_error *err)
{
    script *s = ctx;
    (void)max;
    if (s->nslots < 0) {
        rl_error_set(err, RL_E_NO_SLOT_MAP, "no map");
        return 0;
    }
    memcpy(slots, s->slots, (size_t)s->nslots * sizeof *slots);
    return (size_t)s->nslots;
}

static void on_name(void *ctx, const char *name, size_t len)
{
    script *s = ctx;
    if (s->nnames < 8 && len < 16 && (s->limit == 0 || s->nnames < s->limit)) {
        snprintf(s->names[s->nnames++], 16, "%.*s", (int)len, name);
    }
}

static int enough(void *ctx)
{
    script *s = ctx;
    return s->limit > 0 && s->nnames >= s->limit;
}

static int scan(script *s, rl_vote *failed)
{
    rl_scan sc = {.run = run,
                  .masters = s->nslots != 0 ? masters : NULL,
                  .ctx = s,
                  .match = "lock:*",
                  .prefix = "lock:",
                  .prefix_len = 5,
                  .on_name = on_name,
                  .enough = enough,
                  .on_name_ctx = s};
    memset(failed, 0, sizeof *failed);
    return rl_scan_run(&sc, failed);
}


UNIT_TEST(test_scan_pages_and_failover)
{
    rl_conn *a = rl_placeholder_new("a"), *b = rl_placeholder_new("b");
    script s = {.replies = {"*3\r\n$2\r\n17\r\n$0\r\n\r\n*1\r\n$1\r\nx\r\n",
                            "*3\r\n$1\r\n0\r\n$0\r\n\r\n*1\r\n$1\r\ny\r\n"},
                .on = {a, a}};
    rl_vote failed;

    CHECK(scan(&s, &failed) == RL_OK && s.calls == 2 && s.nnames == 2 && strcmp(s.names[1], "y") == 0,
          "two pages, two names: %d calls, %d names", s.calls, s.nnames);
    CHECK(strcmp(s.cursors[0], "0") == 0 && strcmp(s.cursors[1], "17") == 0 && strcmp(s.keys[0], "{}") == 0,
          "from 0, then the cursor given, routed by {}: %s %s %s", s.cursors[0], s.cursors[1], s.keys[0]);

    /* the same page goes on after a key; then another node answers: its
     * cursor means nothing here, so the loop does not follow it (as the
     * listing did in ext/ before: it ends there, the names found kept) */
    s = (script){.replies = {"*3\r\n$1\r\n9\r\n$40\r\n00112233445566778899aabbccddeeff00112233\r\n*1\r\n$1\r\nx\r\n",
                             "*3\r\n$1\r\n5\r\n$0\r\n\r\n*1\r\n$1\r\nz\r\n", "*3\r\n$1\r\n0\r\n$0\r\n\r\n*0\r\n"},
                 .on = {a, b, b}};
    CHECK(scan(&s, &failed) == RL_OK && s.calls == 2 && s.nnames == 2, "two calls: %d, %d names", s.calls, s.nnames);
    CHECK(strcmp(s.cursors[1], "9") == 0 && strcmp(s.afters[1], "00112233445566778899aabbccddeeff00112233") == 0,
          "the page goes on after the key given: %s %s", s.cursors[1], s.afters[1]);
    rl_conn_free(a);
    rl_conn_free(b);
}

UNIT_TEST(test_scan_cluster_masters_and_failures)
{
    rl_conn *a = rl_placeholder_new("a");
    script s = {.replies = {"*3\r\n$1\r\n0\r\n$0\r\n\r\n*1\r\n$1\r\nx\r\n",
                            "*3\r\n$1\r\n0\r\n$0\r\n\r\n*1\r\n$1\r\ny\r\n"},
                .on = {a, a},
                .slots = {0, 5000},
                .nslots = 2};
    char tag0[8] = {'{'}, tag1[8] = {'{'};
    size_t l0 = rl_slot_tag(0, tag0 + 1), l1 = rl_slot_tag(5000, tag1 + 1);
    rl_vote failed;

    tag0[l0 + 1] = '}';
    tag1[l1 + 1] = '}';
    CHECK(scan(&s, &failed) == RL_OK && s.calls == 2 && s.nnames == 2, "each master scanned: %d calls", s.calls);
    CHECK(strcmp(s.keys[0], tag0) == 0 && strcmp(s.keys[1], tag1) == 0
              && rl_key_slot(s.keys[1], strlen(s.keys[1])) == 5000,
          "by a hash tag of a slot each serves: %s %s", s.keys[0], s.keys[1]);

    s = (script){.nslots = -1};
    CHECK(scan(&s, &failed) == RL_E_NO_SLOT_MAP && failed.err.code == RL_E_NO_SLOT_MAP && s.calls == 0
              && strcmp(failed.err.msg, "no map") == 0,
          "no masters: the node fails, nobody asked");

    s = (script){.replies = {"*3\r\n$2\r\n17\r\n$0\r\n\r\n*0\r\n", NULL}, .on = {a, a}};
    CHECK(scan(&s, &failed) == RL_E_IO && failed.err.code == RL_E_IO && failed.conn == a && s.calls == 2,
          "a page that fails: the node's failure, on the connection it went to");

    s = (script){.replies = {"*3\r\n$2\r\n-1\r\n$0\r\n\r\n*0\r\n"}, .on = {a}};
    CHECK(scan(&s, &failed) == RL_E_REPLY && s.calls == 1, "a malformed cursor: the node's error");
    rl_conn_free(a);
}

UNIT_TEST(test_scan_stops_when_enough)
{
    rl_conn *a = rl_placeholder_new("a");
    script s = {.replies = {"*3\r\n$2\r\n17\r\n$0\r\n\r\n*2\r\n$1\r\nx\r\n$1\r\ny\r\n",
                            "*3\r\n$1\r\n0\r\n$0\r\n\r\n*1\r\n$1\r\nz\r\n"},
                .on = {a, a},
                .limit = 2};
    rl_vote failed;
    CHECK(scan(&s, &failed) == RL_OK && s.calls == 1 && s.nnames == 2, "enough after the first page: %d calls",
          s.calls);
    rl_conn_free(a);
}

UNIT_TEST(test_scan_match)
{
    char *m = rl_scan_match("a*b?[c]\\:", 9, "x*", 2);
    CHECK(m != NULL && strcmp(m, "a\\*b\\?\\[c\\]\\\\:x*") == 0, "the prefix's glob characters escaped: %s", m);
    free(m);
    m = rl_scan_match("", 0, "*", 1);
    CHECK(m != NULL && strcmp(m, "*") == 0, "no prefix: the pattern");
    free(m);
}
