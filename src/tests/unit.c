/* Unit tests of the plain-C core, built without PHP (and with ASan/UBSan by
 * run.sh): parsing, tokens, command encoding, reply judging. What needs a
 * server is tested by the phpt suite against real redis-server processes. */
#include <stdio.h>
#include <string.h>
#include <hiredis/hiredis.h>
#include "../transport/rl_endpoint_parse.h"
#include "../lock/rl_lockops.h"
#include "../lock/rl_scripts.h"
#include "../lock/rl_survey.h"
#include "../base/rl_status.h"
#include "../base/rl_token.h"

#include "unit.h"

static void endpoint_ok(const char *spec, const char *host, int port, const char *path)
{
    rl_endpoint ep;
    char err[160] = "";
    int rc = rl_endpoint_parse(spec, strlen(spec), &ep, err, sizeof err);
    CHECK(rc == 0, "parse(%s) failed: %s", spec, err);
    if (rc == 0) {
        CHECK((host == NULL && ep.host == NULL) || (host && ep.host && strcmp(host, ep.host) == 0),
              "parse(%s): host %s", spec, ep.host ? ep.host : "(null)");
        CHECK(ep.port == port, "parse(%s): port %d", spec, ep.port);
        CHECK((path == NULL && ep.unix_path == NULL) || (path && ep.unix_path && strcmp(path, ep.unix_path) == 0),
              "parse(%s): path %s", spec, ep.unix_path ? ep.unix_path : "(null)");
    }
    rl_endpoint_clear(&ep);
}

static void endpoint_bad(const char *spec, size_t len, const char *want)
{
    rl_endpoint ep;
    char err[160] = "";
    int rc = rl_endpoint_parse(spec, len, &ep, err, sizeof err);
    CHECK(rc != 0 && strstr(err, want) != NULL, "parse(%.*s): rc %d, err '%s', want '%s'", (int)len, spec, rc, err,
          want);
    rl_endpoint_clear(&ep);
}

UNIT_TEST(test_endpoints)
{
    char name[64];
    rl_endpoint ep;

    endpoint_ok("127.0.0.1:6380", "127.0.0.1", 6380, NULL);
    endpoint_ok("redis.internal", "redis.internal", 6379, NULL);
    endpoint_ok("tcp://10.0.0.1:7000", "10.0.0.1", 7000, NULL);
    endpoint_ok("[::1]:6381", "::1", 6381, NULL);
    endpoint_ok("unix:///run/redis.sock", NULL, 0, "/run/redis.sock");
    endpoint_ok("unix:/run/redis.sock", NULL, 0, "/run/redis.sock");
    endpoint_ok("/run/redis.sock", NULL, 0, "/run/redis.sock");
    endpoint_bad("", 0, "empty");
    endpoint_bad("host:", 5, "port");
    endpoint_bad(":6379", 5, "host is empty");
    endpoint_bad("host:0", 6, "port");
    endpoint_bad("host:65536", 10, "port");
    endpoint_bad("http://h:1", 10, "scheme");
    endpoint_bad("unix://relative", 15, "absolute");
    endpoint_bad("a:b:c", 5, "IPv6");
    endpoint_bad("[::1", 4, "IPv6");
    endpoint_bad("h\0st:1", 6, "NUL");

    rl_endpoint_parse("[::1]:6381", 10, &ep, name, sizeof name);
    rl_endpoint_set_str(&ep.password, "secret", 6);
    rl_endpoint_describe(&ep, name, sizeof name);
    CHECK(strcmp(name, "[::1]:6381") == 0, "describe: %s", name);
    CHECK(strstr(name, "secret") == NULL, "describe shows the password");
    rl_endpoint_clear(&ep);
}

UNIT_TEST(test_tokens)
{
    static char seen[1000][RL_TOKEN_LEN + 1];
    int i, j, dup = 0, hex = 1, made = 1;
    for (i = 0; i < 1000; i++) {
        made = made && rl_token_new(seen[i]) == 0;
        hex = hex && strspn(seen[i], "0123456789abcdef") == RL_TOKEN_LEN && strlen(seen[i]) == RL_TOKEN_LEN;
        for (j = 0; j < i; j++) {
            dup += strcmp(seen[i], seen[j]) == 0;
        }
    }
    CHECK(made, "rl_token_new failed");
    CHECK(RL_TOKEN_BYTES >= 16, "tokens shorter than 16 bytes");
    CHECK(hex, "a token is not %d lowercase hex digits", RL_TOKEN_LEN);
    CHECK(dup == 0, "%d duplicate tokens in 1000", dup);
}

/* The bytes rl_op_append writes for op, as RESP. */
#define ENCODES_TO(op, form, lit) encodes_to(op, form, lit, sizeof(lit) - 1)
static void encodes_to(const rl_lock_op *op, rl_send_form form, const char *want, size_t want_len)
{
    rl_endpoint ep = {0};
    rl_conn *c;
    ep.host = "h";
    ep.port = 1;
    c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    CHECK(rl_op_append(c, op, form, 1) == 0, "append failed");
    CHECK(c->out_len == want_len && memcmp(c->out, want, want_len) == 0 && c->owed == 1,
          "encoded as '%.*s', want '%.*s'", (int)c->out_len, c->out, (int)want_len, want);
    rl_conn_free(c);
}

/* What judging the RESP reply `resp` (len bytes) to op gives; text gets
 * its result text (never its error message). */
#define judged(op, lit, value) judged_n(op, lit, sizeof(lit) - 1, value, NULL)
#define judged_text(op, lit, value, text) judged_n(op, lit, sizeof(lit) - 1, value, text)
static int judged_n(const rl_lock_op *op, const char *resp, size_t len, long long *value, char text[128])
{
    redisReader *r = redisReaderCreate();
    void *reply = NULL;
    char err[RL_ERRLEN];
    rl_result out;
    int verdict = -1;
    redisReaderFeed(r, resp, len);
    if (redisReaderGetReply(r, &reply) == REDIS_OK && reply != NULL) {
        verdict = rl_op_judge(op, reply, &out, err, sizeof err);
        *value = out.value;
        if (text != NULL) {
            snprintf(text, 128, "%.127s", out.text);
        }
        freeReplyObject(reply);
    }
    redisReaderFree(r);
    return verdict;
}

/* SCAN's judge tells each key here (struct of a count and 4 keys of 16 bytes). */
static void unit_scan_key(void *ctx, const char *key, size_t len)
{
    struct {
        int n;
        char keys[4][16];
    } *got = ctx;
    if (got->n < 4 && len < 16) {
        memcpy(got->keys[got->n], key, len);
        got->keys[got->n][len] = '\0';
    }
    got->n++;
}

/* A cut name SCAN's judge tells: its length and what follows its head. */
static void unit_scan_cut(void *ctx, const char *name, size_t len)
{
    struct {
        int n;
        size_t len;
        char end[96];
    } *got = ctx;
    got->n++;
    got->len = len;
    snprintf(got->end, sizeof got->end, "%.*s", len > RL_SCAN_NAME_SHOWN ? (int)(len - RL_SCAN_NAME_SHOWN) : 0,
             name + RL_SCAN_NAME_SHOWN);
}

/* The 16 wake streams of lock:r (slot tag "mio"), and of lock:{t}r. */
/* clang-format breaks these lists differently on each pass: kept by hand */
// clang-format off
#define W_MIO(c) "$13\r\nlock:r\0" c "{mio}\r\n"
#define WAKES_MIO \
    W_MIO("A") W_MIO("B") W_MIO("C") W_MIO("D") W_MIO("E") W_MIO("F") W_MIO("G") W_MIO("H") \
    W_MIO("I") W_MIO("J") W_MIO("K") W_MIO("L") W_MIO("M") W_MIO("N") W_MIO("O") W_MIO("P")
#define W_T(c) "$11\r\nlock:{t}r\0" c "\r\n"
#define WAKES_T \
    W_T("A") W_T("B") W_T("C") W_T("D") W_T("E") W_T("F") W_T("G") W_T("H") \
    W_T("I") W_T("J") W_T("K") W_T("L") W_T("M") W_T("N") W_T("O") W_T("P")
// clang-format on

UNIT_TEST(test_lockops)
{
    rl_lock_op lock
        = {.kind = RL_OP_LOCK, .key = "lock:r", .key_len = 6, .token = "tok", .token_len = 3, .ttl_ms = 5000};
    rl_lock_op unlock = {.kind = RL_OP_UNLOCK, .key = "lock:r", .key_len = 6, .token = "tok", .token_len = 3};
    rl_lock_op wait = {.kind = RL_OP_LOCK_WAIT,
                       .key = "lock:r",
                       .key_len = 6,
                       .token = "tok",
                       .token_len = 3,
                       .ttl_ms = 5000,
                       .waiter = "w1",
                       .waiter_len = 2,
                       .wait_ms = 900,
                       .enqueue = 1};
    rl_lock_op wake
        = {.kind = RL_OP_WAKE_WAIT, .key = "lock:r", .key_len = 6, .waiter = "w1", .waiter_len = 2, .wait_ms = 1500};
    rl_lock_op tagged = {.kind = RL_OP_UNLOCK, .key = "lock:{t}r", .key_len = 9, .token = "tok", .token_len = 3};
    rl_lock_op extend
        = {.kind = RL_OP_EXTEND, .key = "lock:r", .key_len = 6, .token = "tok", .token_len = 3, .ttl_ms = 5000};
    rl_lock_op fenced
        = {.kind = RL_OP_LOCK, .key = "lock:r", .key_len = 6, .token = "tok", .token_len = 3, .ttl_ms = 5000};
    rl_lock_op permit
        = {.kind = RL_OP_LOCK, .key = "lock:r", .key_len = 6, .token = "tok", .token_len = 3, .ttl_ms = 5000};
    rl_lock_op one_key = {.kind = RL_OP_UNLOCK, .key = "lock:r", .key_len = 6, .token = "tok", .token_len = 3};
    rl_lock_op holds = {.kind = RL_OP_HOLDS, .key = "lock:r", .key_len = 6, .token = "tok", .token_len = 3};
    long long v = 0;
    int s;

    fenced.fencing = 1;
    one_key.one_key = 1;
    permit.mode = RL_MODE_PERMIT;
    permit.limit = 3;

    ENCODES_TO(&lock, RL_FORM_FIRST,
               "*6\r\n$3\r\nSET\r\n$6\r\nlock:r\r\n$3\r\ntok\r\n$2\r\nNX\r\n$2\r\nPX\r\n$4\r\n5000\r\n");
    /* the waiter reads its wake stream from the start: the lock key, NUL, the
     * letter of its bucket (the id's last hex digit: 1, 'B'), and the tag of
     * the key's slot (13761: "mio"; the key has no hash tag) */
    ENCODES_TO(&wake, RL_FORM_FIRST,
               "*8\r\n$5\r\nXREAD\r\n$5\r\nCOUNT\r\n$2\r\n64\r\n$5\r\nBLOCK\r\n$4\r\n1500\r\n$7\r\nSTREAMS\r\n"
               "$13\r\nlock:r\0B{mio}\r\n$3\r\n0-0\r\n");
    CHECK(rl_wake_bucket("w1", 2) == 1 && rl_wake_bucket("s0f", 3) == 15 && rl_wake_bucket("xA", 2) == 10
              && rl_wake_bucket("x", 1) == 0 && rl_wake_bucket("", 0) == 0,
          "wake buckets");
    for (s = 0; s < RL_SCRIPT_COUNT; s++) {
        rl_script_set_sha((rl_script)s, "0123456789012345678901234567890123456789");
        CHECK(strlen(rl_script_source((rl_script)s)) > 20, "script %d has no source", s);
    }
    /* every key in KEYS: the lock, its queue, reservation, shared holders
     * and wake streams (a release serves every kind of token) */
    ENCODES_TO(&unlock, RL_FORM_FIRST,
               "*24\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$2\r\n20\r\n$6\r\nlock:r\r\n"
               "$13\r\nlock:r\0q{mio}\r\n$13\r\nlock:r\0r{mio}\r\n$13\r\nlock:r\0s{mio}\r\n" WAKES_MIO "$3\r\ntok\r\n");
    /* a key with a hash tag keeps it: derived keys are the key and a suffix */
    ENCODES_TO(&tagged, RL_FORM_FIRST,
               "*24\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$2\r\n20\r\n"
               "$9\r\nlock:{t}r\r\n$11\r\nlock:{t}r\0q\r\n$11\r\nlock:{t}r\0r\r\n$11\r\nlock:{t}r\0s\r\n" WAKES_T
               "$3\r\ntok\r\n");
    /* a Cluster slot being migrated: the release on the lock key alone */
    ENCODES_TO(&one_key, RL_FORM_FIRST,
               "*5\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n1\r\n$6\r\nlock:r\r\n"
               "$3\r\ntok\r\n");
    CHECK(judged(&one_key, ":-1\r\n", &v) == RL_REPLY_NO && v == -1, "one-key release -1: a shared lock, not released");
    /* done: force "0", then 'd' (every waiter woken as done); not on the lock key alone */
    unlock.done = 1;
    ENCODES_TO(&unlock, RL_FORM_FIRST,
               "*26\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$2\r\n20\r\n$6\r\nlock:r\r\n"
               "$13\r\nlock:r\0q{mio}\r\n$13\r\nlock:r\0r{mio}\r\n$13\r\nlock:r\0s{mio}\r\n" WAKES_MIO
               "$3\r\ntok\r\n$1\r\n0\r\n$1\r\nd\r\n");
    /* ... with the holder's result after it (binary-safe), none when too long */
    unlock.value = "pa\0ge";
    unlock.value_len = 5;
    ENCODES_TO(&unlock, RL_FORM_FIRST,
               "*27\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$2\r\n20\r\n$6\r\nlock:r\r\n"
               "$13\r\nlock:r\0q{mio}\r\n$13\r\nlock:r\0r{mio}\r\n$13\r\nlock:r\0s{mio}\r\n" WAKES_MIO
               "$3\r\ntok\r\n$1\r\n0\r\n$1\r\nd\r\n$5\r\npa\0ge\r\n");
    unlock.value_len = RL_ONCE_VALUE_MAX + 1;
    ENCODES_TO(&unlock, RL_FORM_FIRST,
               "*26\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$2\r\n20\r\n$6\r\nlock:r\r\n"
               "$13\r\nlock:r\0q{mio}\r\n$13\r\nlock:r\0r{mio}\r\n$13\r\nlock:r\0s{mio}\r\n" WAKES_MIO
               "$3\r\ntok\r\n$1\r\n0\r\n$1\r\nd\r\n");
    unlock.value = NULL;
    unlock.value_len = 0;
    unlock.done = 0;
    one_key.done = 1;
    ENCODES_TO(&one_key, RL_FORM_FIRST,
               "*5\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n1\r\n$6\r\nlock:r\r\n"
               "$3\r\ntok\r\n");
    one_key.done = 0;
    one_key.force = 1;
    ENCODES_TO(&one_key, RL_FORM_FIRST,
               "*6\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n1\r\n$6\r\nlock:r\r\n"
               "$3\r\ntok\r\n$1\r\n1\r\n");
    /* holds: the lock key alone, the shared holders' key when asked again */
    ENCODES_TO(&holds, RL_FORM_FIRST,
               "*5\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n1\r\n$6\r\nlock:r\r\n"
               "$3\r\ntok\r\n");
    holds.mode = RL_MODE_SHARED;
    ENCODES_TO(&holds, RL_FORM_FIRST,
               "*6\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n2\r\n$6\r\nlock:r\r\n"
               "$13\r\nlock:r\0s{mio}\r\n$3\r\ntok\r\n");
    {
        /* inspect: the lock key and its queue, fence and shared holders' keys,
         * the longest token it sends back (a named one's); its reply checked and written out for the caller */
        rl_lock_op inspect = {.kind = RL_OP_INSPECT, .key = "lock:r", .key_len = 6};
        char text[128];
        long long iv;
        ENCODES_TO(&inspect, RL_FORM_FIRST,
                   "*8\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n4\r\n$6\r\nlock:"
                   "r\r\n"
                   "$13\r\nlock:r\0q{mio}\r\n$13\r\nlock:r\0f{mio}\r\n$13\r\nlock:r\0s{mio}\r\n$3\r\n193\r\n");
        struct {
            int n;
            char keys[4][16];
        } toks = {0};
        inspect.on_key = unit_scan_key;
        inspect.on_key_ctx = &toks;
        CHECK(judged_text(&inspect, "*6\r\n$6\r\nshared\r\n:2\r\n:4999\r\n:3\r\n:-1\r\n*2\r\n$2\r\nt1\r\n$2\r\nt2\r\n",
                          &iv, text)
                      == RL_REPLY_YES
                  && strcmp(text, "shared 2 4999 3 -1") == 0 && toks.n == 2 && strcmp(toks.keys[1], "t2") == 0,
              "inspect: %s, %d tokens", text, toks.n);
        CHECK(judged_text(&inspect, "*6\r\n$4\r\nevil\r\n:2\r\n:4999\r\n:3\r\n:-1\r\n*0\r\n", &iv, text)
                  == RL_REPLY_ERROR,
              "inspect: an unknown kind");
        CHECK(judged_text(&inspect, "*6\r\n$4\r\nlock\r\n:1\r\n$1\r\n5\r\n:0\r\n:7\r\n*0\r\n", &iv, text)
                  == RL_REPLY_ERROR,
              "inspect: a TTL not an integer");
        CHECK(judged_text(&inspect, "*6\r\n$4\r\nlock\r\n:1\r\n:5\r\n:0\r\n:7\r\n*1\r\n:1\r\n", &iv, text)
                  == RL_REPLY_ERROR,
              "inspect: a token not a string");
        CHECK(judged_text(&inspect, "*5\r\n$4\r\nlock\r\n:1\r\n:5\r\n:0\r\n:7\r\n", &iv, text) == RL_REPLY_ERROR,
              "inspect: five elements");
    }
    {
        /* SCAN (the scan script): its cursor, pattern, where in the page it
         * goes on, the prefix's length; each name told but the derived
         * keys' (rl_key_listed() on the whole key: "lock:{a}\0q" is
         * lock:{a}'s queue; "a\0b" is a name); the next cursor, and the key
         * it goes on after, in the result's text */
        struct {
            int n;
            char keys[4][16];
        } got = {0};
        rl_lock_op scan = {.kind = RL_OP_SCAN,
                           .key = "{0}",
                           .key_len = 3,
                           .cursor = "17",
                           .match = "lock:*",
                           .prefix = "lock:",
                           .name_at = 5,
                           .on_key = unit_scan_key,
                           .on_key_ctx = &got};
        char text[128];
        long long sv;
        ENCODES_TO(&scan, RL_FORM_FIRST,
                   "*12\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n1\r\n$3\r\n{0}\r\n"
                   "$2\r\n17\r\n$6\r\nlock:*\r\n$2\r\n48\r\n$0\r\n\r\n$1\r\n5\r\n$4\r\n1024\r\n$2\r\n48\r\n$"
                   "2\r\n64\r\n");
        CHECK(judged_text(&scan,
                          "*3\r\n$3\r\n420\r\n$0\r\n\r\n*4\r\n$3\r\n{a}\r\n$5\r\n{a}\0q\r\n$1\r\nb\r\n$3\r\na\0b\r\n",
                          &sv, text)
                      == RL_REPLY_YES
                  && strcmp(text, "420") == 0 && got.n == 3 && strcmp(got.keys[0], "{a}") == 0
                  && strcmp(got.keys[1], "b") == 0 && memcmp(got.keys[2], "a\0b", 4) == 0,
              "scan: next cursor %s, %d names", text, got.n);
        got.n = 0;
        CHECK(judged_text(&scan, "*3\r\n$2\r\n17\r\n$40\r\n00112233445566778899aabbccddeeff00112233\r\n*0\r\n", &sv,
                          text)
                      == RL_REPLY_YES
                  && strcmp(text, "17 00112233445566778899aabbccddeeff00112233") == 0,
              "scan: the same page goes on: %s", text);
        CHECK(judged_text(&scan, "*3\r\n$2\r\n-1\r\n$0\r\n\r\n*0\r\n", &sv, text) == RL_REPLY_ERROR,
              "scan: a cursor not a number");
        CHECK(judged_text(&scan, "*3\r\n$1\r\n0\r\n$3\r\nxyz\r\n*0\r\n", &sv, text) == RL_REPLY_ERROR,
              "scan: an after not a SHA1");
        CHECK(judged_text(&scan, "*3\r\n$1\r\n0\r\n$0\r\n\r\n*1\r\n:5\r\n", &sv, text) == RL_REPLY_ERROR && got.n == 0,
              "scan: a name not a string, nothing told");
        CHECK(judged_text(&scan, "*2\r\n$1\r\n0\r\n*0\r\n", &sv, text) == RL_REPLY_ERROR,
              "scan: two elements (SCAN's own)");
    }
    {
        /* SCAN: a long name comes cut, [head, length, tail, SHA1], and is
         * told as its head and a mark; one whose tail holds a NUL (a
         * derived key's) is not told; a head not of the shown length is malformed */
        struct {
            int n;
            size_t len;
            char end[96];
        } cut = {0};
        rl_lock_op scan = {.kind = RL_OP_SCAN,
                           .key = "{0}",
                           .key_len = 3,
                           .cursor = "0",
                           .match = "*",
                           .on_key = unit_scan_cut,
                           .on_key_ctx = &cut};
        char resp[RL_SCAN_NAME_SHOWN + 256], head[RL_SCAN_NAME_SHOWN + 1], text[128];
        const char *sha = "00112233445566778899aabbccddeeff00112233";
        long long sv;
        int n;
        memset(head, 'h', RL_SCAN_NAME_SHOWN);
        head[RL_SCAN_NAME_SHOWN] = '\0';
        n = snprintf(resp, sizeof resp,
                     "*3\r\n$1\r\n0\r\n$0\r\n\r\n*1\r\n*4\r\n$%d\r\n%s\r\n:70000\r\n$2\r\nzz\r\n$40\r\n%s\r\n",
                     RL_SCAN_NAME_SHOWN, head, sha);
        CHECK(judged_n(&scan, resp, (size_t)n, &sv, text) == RL_REPLY_YES && cut.n == 1
                  && cut.len == RL_SCAN_NAME_SHOWN + strlen(cut.end)
                  && strcmp(cut.end, "... (70000 bytes, sha1 00112233445566778899aabbccddeeff00112233)") == 0,
              "scan: a cut name told as '%s' (%zu bytes)", cut.end, cut.len);
        strstr(resp, "zz\r\n$40")[1] = '\0'; /* the tail "zz" becomes "z\0": a derived key's */
        cut.n = 0;
        CHECK(judged_n(&scan, resp, (size_t)n, &sv, text) == RL_REPLY_YES && cut.n == 0,
              "scan: a derived key's cut name not told");
        n = snprintf(resp, sizeof resp,
                     "*3\r\n$1\r\n0\r\n$0\r\n\r\n*1\r\n*4\r\n$3\r\nabc\r\n:70000\r\n$2\r\nzz\r\n$40\r\n%s\r\n", sha);
        CHECK(judged_n(&scan, resp, (size_t)n, &sv, text) == RL_REPLY_ERROR, "scan: a cut name's head too short");
    }
    {
        /* watch: one XREAD of every wake stream from now; a nil is no wake */
        rl_lock_op watch = {.kind = RL_OP_WATCH, .key = "lock:r", .key_len = 6, .wait_ms = 1000};
        long long wv;
        ENCODES_TO(&watch, RL_FORM_FIRST,
                   "*38\r\n$5\r\nXREAD\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n$5\r\nBLOCK\r\n$4\r\n1000\r\n$"
                   "7\r\nSTREAMS\r\n" WAKES_MIO
                   "$1\r\n$\r\n$1\r\n$\r\n$1\r\n$\r\n$1\r\n$\r\n$1\r\n$\r\n$1\r\n$\r\n$1\r\n$\r\n$1\r\n$\r\n"
                   "$1\r\n$\r\n$1\r\n$\r\n$1\r\n$\r\n$1\r\n$\r\n$1\r\n$\r\n$1\r\n$\r\n$1\r\n$\r\n$1\r\n$\r\n");
        CHECK(judged(&watch, "*-1\r\n", &wv) == RL_REPLY_NO, "watch: nothing within the block");
        CHECK(judged(&watch, "*1\r\n*2\r\n$1\r\nS\r\n*0\r\n", &wv) == RL_REPLY_YES, "watch: a wake");
    }
    /* a lock's extend has its one key; a shared lock's its holders' too */
    ENCODES_TO(&extend, RL_FORM_FIRST,
               "*6\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n1\r\n$6\r\nlock:r\r\n"
               "$3\r\ntok\r\n$4\r\n5000\r\n");
    extend.mode = RL_MODE_SHARED;
    ENCODES_TO(&extend, RL_FORM_FIRST,
               "*7\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n2\r\n$6\r\nlock:r\r\n"
               "$13\r\nlock:r\0s{mio}\r\n$3\r\ntok\r\n$4\r\n5000\r\n");
    /* fencing: the acquire script with the counter, in every form */
    ENCODES_TO(&fenced, RL_FORM_FIRST,
               "*7\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n2\r\n$6\r\nlock:r\r\n"
               "$13\r\nlock:r\0f{mio}\r\n$3\r\ntok\r\n$4\r\n5000\r\n");
    /* ... with 'h' when the caller holds it already: a re-entrant acquire keeps its number */
    fenced.held = 1;
    ENCODES_TO(&fenced, RL_FORM_FIRST,
               "*8\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n2\r\n$6\r\nlock:r\r\n"
               "$13\r\nlock:r\0f{mio}\r\n$3\r\ntok\r\n$4\r\n5000\r\n$1\r\nh\r\n");
    fenced.held = 0;
    /* a waiter that queues passes its own wake stream (bucket 1 of "w1": B),
     * last, flag 'w'; held without fencing: nothing to keep, no 'h' */
    wait.held = 1;
    ENCODES_TO(&wait, RL_FORM_FIRST,
               "*13\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n4\r\n$6\r\nlock:r\r\n"
               "$13\r\nlock:r\0q{mio}\r\n$13\r\nlock:r\0r{mio}\r\n$13\r\nlock:r\0B{mio}\r\n"
               "$3\r\ntok\r\n$4\r\n5000\r\n$2\r\nw1\r\n$3\r\n900\r\n$1\r\n1\r\n$1\r\nw\r\n");
    wait.fencing = 1;
    wait.promote = 1;
    ENCODES_TO(&wait, RL_FORM_FIRST,
               "*15\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n6\r\n$6\r\nlock:r\r\n"
               "$13\r\nlock:r\0q{mio}\r\n$13\r\nlock:r\0r{mio}\r\n$13\r\nlock:r\0f{mio}\r\n$13\r\nlock:r\0s{mio}\r\n"
               "$13\r\nlock:r\0B{mio}\r\n"
               "$3\r\ntok\r\n$4\r\n5000\r\n$2\r\nw1\r\n$3\r\n900\r\n$1\r\n1\r\n$3\r\nshw\r\n");
    /* a look that does not queue: no wake stream */
    wait.enqueue = 0;
    ENCODES_TO(&wait, RL_FORM_FIRST,
               "*14\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n5\r\n$6\r\nlock:r\r\n"
               "$13\r\nlock:r\0q{mio}\r\n$13\r\nlock:r\0r{mio}\r\n$13\r\nlock:r\0f{mio}\r\n$13\r\nlock:r\0s{mio}\r\n"
               "$3\r\ntok\r\n$4\r\n5000\r\n$2\r\nw1\r\n$3\r\n900\r\n$1\r\n0\r\n$2\r\nsh\r\n");
    wait.held = wait.fencing = wait.promote = 0;
    wait.enqueue = 1;
    /* a permit, one try: the token stands in for the waiter, not queued, the limit last */
    ENCODES_TO(&permit, RL_FORM_FIRST,
               "*28\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$2\r\n19\r\n$6\r\nlock:r\r\n"
               "$13\r\nlock:r\0q{mio}\r\n$13\r\nlock:r\0r{mio}\r\n" WAKES_MIO
               "$3\r\ntok\r\n$4\r\n5000\r\n$3\r\ntok\r\n$1\r\n0\r\n$1\r\n0\r\n$1\r\n3\r\n");
    CHECK(judged(&fenced, ":42\r\n", &v) == RL_REPLY_YES && v == 42, "fenced acquire: the count is the value");
    CHECK(judged(&fenced, ":0\r\n", &v) == RL_REPLY_NO, "fenced acquire 0 is not a no");
    CHECK(judged(&wait, ":-45\r\n", &v) == RL_REPLY_YES && v == 42, "acquire-or-queue -3 - 42: count %lld", v);
    CHECK(judged(&permit, ":-3\r\n", &v) == RL_REPLY_YES && v == 0, "permit taken");
    CHECK(judged(&permit, ":250\r\n", &v) == RL_REPLY_NO && v == 250, "permit: PTTL of the first to expire");
    CHECK(judged(&extend, ":-1\r\n", &v) == RL_REPLY_NO && v == -1, "extend -1: ask again with the holders' key");

    CHECK(judged(&lock, "+OK\r\n", &v) == RL_REPLY_YES, "SET +OK is not a yes");
    CHECK(judged(&lock, "$-1\r\n", &v) == RL_REPLY_NO, "SET nil is not a no");
    CHECK(judged(&lock, "-OOM command not allowed\r\n", &v) == RL_REPLY_ERROR, "OOM is not an error");
    CHECK(judged(&lock, "-NOAUTH Authentication required.\r\n", &v) == RL_REPLY_NOAUTH, "NOAUTH not seen");
    CHECK(judged(&lock, "-ERR Protocol error: unauthenticated multibulk length\r\n", &v) == RL_REPLY_NOAUTH,
          "a long command refused before AUTH is NOAUTH");
    CHECK(judged(&unlock, "-NOSCRIPT No matching script\r\n", &v) == RL_REPLY_NOSCRIPT, "NOSCRIPT not seen");
    CHECK(judged(&unlock, ":1\r\n", &v) == RL_REPLY_YES, "release 1 is not a yes");
    CHECK(judged(&unlock, ":0\r\n", &v) == RL_REPLY_NO, "release 0 is not a no");
    CHECK(judged(&wait, ":-3\r\n", &v) == RL_REPLY_YES, "acquire-or-queue -3 is not a yes");
    CHECK(judged(&wait, ":1500\r\n", &v) == RL_REPLY_NO && v == 1500, "acquire-or-queue PTTL: %lld", v);
    {
        char id[128];
        CHECK(judged_text(&wait, "*3\r\n:1500\r\n$6\r\n1234-5\r\n$3\r\ntok\r\n", &v, id) == RL_REPLY_NO && v == 1500
                  && strcmp(id, "1234-5 tok") == 0,
              "queued: PTTL, the wake stream's last id, the holder");
        {
            char got[RL_WAKE_ID_MAX];
            const char *holder;
            size_t holder_len;
            rl_queued_parse(id, got, &holder, &holder_len);
            CHECK(strcmp(got, "1234-5") == 0 && holder_len == 3 && memcmp(holder, "tok", 3) == 0, "read back");
            rl_queued_parse("1234-5 ", got, &holder, &holder_len);
            CHECK(strcmp(got, "1234-5") == 0 && holder_len == 0, "no holder");
        }
        CHECK(judged(&wait, "*3\r\n:-2\r\n$3\r\n0-0\r\n$0\r\n\r\n", &v) == RL_REPLY_NO && v == -2,
              "queued, no TTL known");
        CHECK(judged(&wait, "*2\r\n:-2\r\n$3\r\n0-0\r\n", &v) == RL_REPLY_ERROR, "queued: no holder element");
        CHECK(judged(&wait, "*3\r\n:-2\r\n$3\r\n0 0\r\n$0\r\n\r\n", &v) == RL_REPLY_ERROR,
              "queued: an id with a space");
        CHECK(judged(&wait, "+DONE\r\n", &v) == RL_REPLY_ERROR, "+DONE to a waiter that is no guard");
        wait.guard = 1;
        CHECK(judged(&wait, "+DONE\r\n", &v) == RL_REPLY_NO && v == RL_PTTL_DONE, "+DONE: the guard's waiter is done");
        CHECK(judged(&wait, "+OK\r\n", &v) == RL_REPLY_ERROR, "+OK to a guard's waiter");
        ENCODES_TO(&wait, RL_FORM_FIRST,
                   "*13\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n4\r\n$6\r\nlock:"
                   "r\r\n"
                   "$13\r\nlock:r\0q{mio}\r\n$13\r\nlock:r\0r{mio}\r\n$13\r\nlock:r\0B{mio}\r\n"
                   "$3\r\ntok\r\n$4\r\n5000\r\n$2\r\nw1\r\n$3\r\n900\r\n$1\r\n1\r\n$2\r\nwg\r\n");
        wait.guard = 0;
        CHECK(judged(&wait, "*2\r\n$4\r\n1500\r\n$3\r\n0-0\r\n", &v) == RL_REPLY_ERROR, "queued: PTTL not an integer");
        CHECK(judged(&wait, "*2\r\n:1\r\n$0\r\n\r\n", &v) == RL_REPLY_ERROR, "queued: an empty id");
        CHECK(judged(&wait, "*1\r\n:1\r\n", &v) == RL_REPLY_ERROR, "queued: one element");
        CHECK(judged(&wait, "*2\r\n:1\r\n$60\r\n012345678901234567890123456789012345678901234567890123456789\r\n", &v)
                  == RL_REPLY_ERROR,
              "queued: an id too long");
    }
    CHECK(judged(&wake, "*1\r\n*2\r\n$1\r\nS\r\n*1\r\n*2\r\n$3\r\n5-0\r\n*2\r\n$1\r\nw\r\n$2\r\nw1\r\n", &v)
              == RL_REPLY_NO,
          "a wake on another lock's stream counts");
    CHECK(judged(&wake,
                 "*1\r\n*2\r\n$13\r\nlock:r\0B{mio}\r\n*2\r\n*2\r\n$3\r\n5-0\r\n*2\r\n$1\r\nw\r\n$2\r\nw9\r\n"
                 "*2\r\n$3\r\n6-1\r\n*2\r\n$1\r\nw\r\n$2\r\nw1\r\n",
                 &v)
              == RL_REPLY_YES,
          "XREAD naming the waiter is not a wake");
    CHECK(judged(&wake, "*1\r\n*2\r\n$13\r\nlock:r\0B{mio}\r\n*1\r\n*2\r\n$3\r\n5-0\r\n*2\r\n$1\r\nw\r\n$2\r\nw9\r\n",
                 &v)
              == RL_REPLY_NO,
          "XREAD naming another waiter is a wake");
    CHECK(judged(&wake, "*-1\r\n", &v) == RL_REPLY_NO, "XREAD nil is a wake");
    v = 0;
    CHECK(judged(&wake, "*1\r\n*2\r\n$13\r\nlock:r\0B{mio}\r\n*1\r\n*2\r\n$3\r\n5-0\r\n*2\r\n$1\r\nn\r\n$2\r\nw1\r\n",
                 &v)
                  == RL_REPLY_NO
              && v == RL_WAKE_NEXT,
          "named next in line: not woken, told to look again soon");
    v = 0;
    CHECK(judged(&wake, "*1\r\n*2\r\n$13\r\nlock:r\0B{mio}\r\n*1\r\n*2\r\n$3\r\n5-0\r\n*2\r\n$1\r\nn\r\n$2\r\nw9\r\n",
                 &v)
                  == RL_REPLY_NO
              && v == 0,
          "another waiter next in line is nothing to us");
    /* woken as done: the waiter among a done entry's ids (a guard's wait ends) */
#define DONE_ENTRY(ids) "*1\r\n*2\r\n$13\r\nlock:r\0B{mio}\r\n*1\r\n*2\r\n$3\r\n5-0\r\n*2\r\n$1\r\nd\r\n" ids
    wake.guard = 1;
    CHECK(judged(&wake, DONE_ENTRY("$8\r\nw9,w1,w3\r\n"), &v) == RL_REPLY_YES && v == RL_WAKE_DONE,
          "done, in the middle");
    CHECK(judged(&wake, DONE_ENTRY("$2\r\nw1\r\n"), &v) == RL_REPLY_YES && v == RL_WAKE_DONE, "done, alone");
    CHECK(judged(&wake, DONE_ENTRY("$5\r\nw9,w1\r\n"), &v) == RL_REPLY_YES && v == RL_WAKE_DONE, "done, last");
    CHECK(judged(&wake, DONE_ENTRY("$8\r\nw11,w9,1\r\n"), &v) == RL_REPLY_NO && v == 0, "done: not a prefix or suffix");
    CHECK(judged(&wake, DONE_ENTRY("$3\r\nw1,\r\n"), &v) == RL_REPLY_YES, "a trailing comma");
    CHECK(judged(&wake, DONE_ENTRY("$0\r\n\r\n"), &v) == RL_REPLY_NO, "no ids");
    wake.guard = 0;
    CHECK(judged(&wake, DONE_ENTRY("$5\r\nw9,w1\r\n"), &v) == RL_REPLY_YES && v == 0, "not a guard: a plain wake");
#undef DONE_ENTRY
    CHECK(judged(&wake, "*1\r\n*2\r\n$13\r\nlock:r\0B{mio}\r\n*0\r\n", &v) == RL_REPLY_ERROR, "XREAD with no entry");
    CHECK(judged(&wake, "*1\r\n*2\r\n$13\r\nlock:r\0B{mio}\r\n*1\r\n*2\r\n$3\r\n5-0\r\n*1\r\n$1\r\nw\r\n", &v)
              == RL_REPLY_ERROR,
          "XREAD entry with an odd field list");
    CHECK(judged(&wake, "*1\r\n*2\r\n$13\r\nlock:r\0B{mio}\r\n*1\r\n*2\r\n:5\r\n*0\r\n", &v) == RL_REPLY_ERROR,
          "XREAD entry id not a string");
    CHECK(judged(&lock, ":7\r\n", &v) == RL_REPLY_NO, "integer to SET");
    CHECK(judged(&unlock, "+OK\r\n", &v) == RL_REPLY_ERROR, "status to a script is not an error");
}

UNIT_TEST(test_status)
{
    CHECK(rl_status_is_connection(RL_E_CONNECT) && rl_status_is_connection(RL_E_TIMEOUT)
              && rl_status_is_connection(RL_E_AUTH) && rl_status_is_connection(RL_E_IO),
          "connection statuses");
    CHECK(!rl_status_is_connection(RL_E_REPLY) && !rl_status_is_connection(RL_OK), "non-connection statuses");
    CHECK(strcmp(rl_status_name(RL_E_TIMEOUT), "timed out") == 0, "status name");
}
