/* The server's own compare-and-delete: COMMAND INFO's reply read into
 * rl_conn.native (real servers' bytes and hostile ones), taken out of the
 * reply stream in its turn, the guard's depth allowance for that reply
 * alone, how a release is written as DELIFEQ / DELEX and EXISTS, when it
 * may be, and which error replies send it back to the script. */
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <hiredis/hiredis.h>
#include "unit.h"
#include "../base/rl_pid.h"
#include "../base/rl_status.h"
#include "../lock/rl_lockops.h"
#include "../lock/rl_scripts.h"
#include "../transport/rl_conn.h"
#include "../transport/rl_reply_guard.h"

/* COMMAND INFO DELIFEQ DELEX, as Redis 7.0.15, Valkey 9.1.2 and Redis 8.6.3 answer it. */
#define INFO_REDIS70 "*2\r\n$-1\r\n$-1\r\n"
#define KEYSPEC \
    "*1\r\n*6\r\n$5\r\nflags\r\n*2\r\n+RM\r\n+delete\r\n$12\r\nbegin_search\r\n*4\r\n$4\r\ntype\r\n$5\r\nindex\r\n" \
    "$4\r\nspec\r\n*2\r\n$5\r\nindex\r\n:1\r\n$9\r\nfind_keys\r\n*4\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n" \
    "*6\r\n$7\r\nlastkey\r\n:0\r\n$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n"
#define DELIFEQ_ENTRY \
    "*10\r\n$7\r\ndelifeq\r\n:3\r\n*2\r\n+write\r\n+fast\r\n:1\r\n:1\r\n:1\r\n*3\r\n+@write\r\n+@string\r\n" \
    "+@fast\r\n*0\r\n" KEYSPEC "*0\r\n"
#define DELEX_ENTRY \
    "*10\r\n$5\r\ndelex\r\n:-2\r\n*2\r\n+write\r\n+fast\r\n:1\r\n:1\r\n:1\r\n*3\r\n+@write\r\n+@string\r\n" \
    "+@fast\r\n*0\r\n" KEYSPEC "*0\r\n"
#define INFO_VALKEY91 "*2\r\n" DELIFEQ_ENTRY "$-1\r\n"
#define INFO_REDIS86 "*2\r\n$-1\r\n" DELEX_ENTRY
#define INFO_VALKEY92 "*2\r\n" DELIFEQ_ENTRY DELEX_ENTRY

static int native_of(const char *resp, size_t len)
{
    redisReader *r = redisReaderCreate();
    void *reply = NULL;
    int n = -1;
    redisReaderFeed(r, resp, len);
    if (redisReaderGetReply(r, &reply) == REDIS_OK && reply != NULL) {
        n = rl_native_from_reply(reply);
        freeReplyObject(reply);
    }
    redisReaderFree(r);
    return n;
}
#define NATIVE_OF(lit) native_of(lit, sizeof(lit) - 1)

UNIT_TEST(test_native_from_command_info)
{
    CHECK(NATIVE_OF(INFO_REDIS70) == RL_NATIVE_NONE, "Redis 7.0: neither");
    CHECK(NATIVE_OF(INFO_VALKEY91) == RL_NATIVE_DELIFEQ, "Valkey 9.1: DELIFEQ");
    CHECK(NATIVE_OF(INFO_REDIS86) == RL_NATIVE_DELEX, "Redis 8.6: DELEX");
    CHECK(NATIVE_OF(INFO_VALKEY92) == RL_NATIVE_DELIFEQ, "both: DELIFEQ");
    CHECK(NATIVE_OF("*2\r\n*-1\r\n*-1\r\n") == RL_NATIVE_NONE, "nil arrays");
    /* what a proxy or a hostile server may say instead */
    CHECK(NATIVE_OF("-ERR unknown command 'COMMAND'\r\n") == RL_NATIVE_NONE, "an error");
    CHECK(NATIVE_OF("+OK\r\n") == RL_NATIVE_NONE, "a status");
    CHECK(NATIVE_OF(":1\r\n") == RL_NATIVE_NONE, "an integer");
    CHECK(NATIVE_OF("*0\r\n") == RL_NATIVE_NONE, "an empty array");
    CHECK(NATIVE_OF("*2\r\n$7\r\ndelifeq\r\n:3\r\n") == RL_NATIVE_NONE, "flat, not entries");
    CHECK(NATIVE_OF("*1\r\n*2\r\n$7\r\ndelifeq\r\n:3\r\n") == RL_NATIVE_NONE, "one entry for two commands");
    CHECK(NATIVE_OF("*2\r\n*2\r\n$7\r\nDELIFEQ\r\n:3\r\n$-1\r\n") == RL_NATIVE_DELIFEQ, "the name in capitals");
    CHECK(NATIVE_OF("*2\r\n*2\r\n$7\r\ndelifeq\r\n:-3\r\n$-1\r\n") == RL_NATIVE_NONE, "DELIFEQ of another arity");
    CHECK(NATIVE_OF("*2\r\n*2\r\n$6\r\ndelete\r\n:3\r\n$-1\r\n") == RL_NATIVE_NONE, "another command's entry");
    CHECK(NATIVE_OF("*2\r\n$-1\r\n*2\r\n$5\r\ndelex\r\n:2\r\n") == RL_NATIVE_NONE, "DELEX of a fixed arity");
    CHECK(NATIVE_OF("*2\r\n$-1\r\n*2\r\n$5\r\ndelex\r\n$2\r\n-2\r\n") == RL_NATIVE_NONE, "arity not an integer");
    CHECK(NATIVE_OF("*2\r\n$-1\r\n*1\r\n$5\r\ndelex\r\n") == RL_NATIVE_NONE, "entry without an arity");
    CHECK(NATIVE_OF("*2\r\n*2\r\n:7\r\n:3\r\n$-1\r\n") == RL_NATIVE_NONE, "name not a string");
    CHECK(NATIVE_OF("*2\r\n*2\r\n+delifeq\r\n:3\r\n$-1\r\n") == RL_NATIVE_NONE, "name as a status");
}

/* COMMAND INFO's reply nests 6 deep: allowed for that reply alone. */
UNIT_TEST(test_native_guard_depth)
{
    static const char info[] = ":1\r\n" INFO_VALKEY91 ":0\r\n";
    static const char deep_first[] = "*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n";
    rl_reply_limits l;
    rl_reply_guard g;
    char why[RL_REPLY_WHY_LEN];

    rl_reply_limits_default(&l);
    rl_reply_guard_init(&g, &l);
    rl_reply_guard_expect(&g, 1);
    rl_reply_guard_allow_deep(&g);
    rl_reply_guard_expect(&g, 1);
    rl_reply_guard_expect(&g, 1);
    CHECK(rl_reply_guard_scan(&g, info, sizeof info - 1, NULL, why, sizeof why) == 0 && g.complete == 3,
          "SET's, COMMAND INFO's, the next reply: %s", why);

    /* the same depth in the reply before it is refused, as without the allowance */
    rl_reply_guard_init(&g, &l);
    rl_reply_guard_expect(&g, 1);
    rl_reply_guard_allow_deep(&g);
    rl_reply_guard_expect(&g, 1);
    CHECK(rl_reply_guard_scan(&g, deep_first, sizeof deep_first - 1, NULL, why, sizeof why) != 0
              && strcmp(why, "arrays nested deeper than 5") == 0, "the reply before: '%s'", why);
    /* and in the one after it */
    rl_reply_guard_init(&g, &l);
    rl_reply_guard_allow_deep(&g);
    rl_reply_guard_expect(&g, 2);
    CHECK(rl_reply_guard_scan(&g, ":1\r\n", 4, NULL, why, sizeof why) == 0
              && rl_reply_guard_scan(&g, deep_first, sizeof deep_first - 1, NULL, why, sizeof why) != 0
              && strcmp(why, "arrays nested deeper than 5") == 0, "the reply after: '%s'", why);
    /* the allowance is the cap, not more: 8 deep is refused there too */
    rl_reply_guard_init(&g, &l);
    rl_reply_guard_allow_deep(&g);
    rl_reply_guard_expect(&g, 1);
    CHECK(rl_reply_guard_scan(&g, "*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n", 36, NULL, why, sizeof why) != 0
              && strcmp(why, "arrays nested deeper than 7") == 0, "8 deep: '%s'", why);
    /* a reset forgets it */
    rl_reply_guard_init(&g, &l);
    rl_reply_guard_allow_deep(&g);
    rl_reply_guard_reset(&g);
    rl_reply_guard_expect(&g, 1);
    CHECK(rl_reply_guard_scan(&g, deep_first, sizeof deep_first - 1, NULL, why, sizeof why) != 0,
          "allowance kept across a reset");
}

/* A connection on one end of a socket pair; the test writes the server's bytes at the other. */
static rl_conn *paired(int *server)
{
    rl_endpoint ep = {0};
    int sv[2];
    rl_conn *c;
    ep.host = "h";
    ep.port = 1;
    c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    if (c == NULL || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        return NULL;
    }
    c->fd = sv[0];
    c->pid = rl_pid();
    c->reader = redisReaderCreate();
    *server = sv[1];
    return c;
}

static int feed(rl_conn *c, int server, const char *s, size_t len)
{
    char err[128];
    if (write(server, s, len) != (ssize_t)len) {
        return -1;
    }
    return rl_conn_fill(c, err, sizeof err);
}
#define FEED(c, server, lit) feed(c, server, lit, sizeof(lit) - 1)

static long long next_int(rl_conn *c)
{
    int status = 0;
    redisReply *r = rl_conn_next_reply(c, &status);
    long long v = r != NULL && r->type == REDIS_REPLY_INTEGER ? r->integer : -99;
    if (r != NULL) {
        freeReplyObject(r);
    }
    return status != 0 ? -98 : v;
}

UNIT_TEST(test_native_asked_in_the_stream)
{
    static const char *set[] = {"SET", "k", "v"};
    static const size_t set_len[] = {3, 1, 1};
    int server = -1, status = 0;
    rl_conn *c = paired(&server);

    CHECK(c != NULL, "socket pair");
    if (c == NULL) {
        return;
    }
    /* a command, the question behind it, a command after it */
    CHECK(rl_conn_append(c, 3, set, set_len, 1) == 0 && rl_conn_native_ask(c, 1) == 0
              && rl_conn_append(c, 3, set, set_len, 1) == 0, "append");
    CHECK(c->native == RL_NATIVE_ASKING && c->owed == 3 && c->native_ahead == 1 && rl_conn_unclaimed(c) == 2,
          "asking: owed %d ahead %d", c->owed, c->native_ahead);
    CHECK(rl_conn_native_ask(c, 1) == 0 && c->owed == 3, "asked twice");
    /* the answers come in pieces: the caller sees its two replies, not COMMAND INFO's */
    CHECK(FEED(c, server, ":1\r\n*2\r\n*10\r\n$7\r\ndeli") == 0, "fill");
    CHECK(next_int(c) == 1 && c->native == RL_NATIVE_ASKING, "the first reply");
    CHECK(rl_conn_next_reply(c, &status) == NULL && status == 0, "COMMAND INFO's, incomplete");
    CHECK(FEED(c, server, "feq\r\n:3\r\n*2\r\n+write\r\n+fast\r\n:1\r\n:1\r\n:1\r\n*3\r\n+@write\r\n+@string\r\n"
                          "+@fast\r\n*0\r\n" KEYSPEC "*0\r\n$-1\r\n:0\r\n") == 0, "fill");
    CHECK(next_int(c) == 0, "the command after it, next");
    CHECK(c->native == RL_NATIVE_DELIFEQ && c->owed == 0 && rl_conn_unclaimed(c) == 0, "native %d owed %d",
          c->native, c->owed);

    /* a new socket is asked again */
    rl_conn_close(c);
    CHECK(c->native == RL_NATIVE_UNKNOWN && !c->native_gave_up, "close: unknown");
    close(server);
    rl_conn_free(c);

    /* an error reply: none, and the stream goes on */
    c = paired(&server);
    CHECK(c != NULL && rl_conn_append(c, 3, set, set_len, 1) == 0 && rl_conn_native_ask(c, 1) == 0, "append");
    CHECK(FEED(c, server, "+OK\r\n-ERR unknown command 'COMMAND'\r\n") == 0, "fill");
    {
        redisReply *r = rl_conn_next_reply(c, &status);
        CHECK(r != NULL && r->type == REDIS_REPLY_STATUS && rl_conn_next_reply(c, &status) == NULL
                  && c->native == RL_NATIVE_NONE && c->owed == 0, "error: none");
        if (r) {
            freeReplyObject(r);
        }
    }
    /* a socket closed while the answer was owed: this connection asks no more */
    CHECK(rl_conn_append(c, 3, set, set_len, 1) == 0, "append");
    c->native = RL_NATIVE_UNKNOWN;
    CHECK(rl_conn_native_ask(c, 1) == 0 && c->native == RL_NATIVE_ASKING, "asking");
    rl_conn_close(c);
    CHECK(c->native == RL_NATIVE_UNKNOWN && c->native_gave_up, "gave up");
    CHECK(rl_conn_native_ask(c, 1) == 0 && c->native == RL_NATIVE_NONE && c->out_len == 0 && c->owed == 0,
          "not asked again");
    close(server);
    rl_conn_free(c);
}

/* Writes op's native release on a connection whose node has `native`. */
static void native_encodes(const rl_op *op, int native, const char *want, size_t want_len)
{
    rl_endpoint ep = {0};
    rl_conn *c;
    ep.host = "h";
    ep.port = 1;
    c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    c->native = native;
    CHECK(rl_native_release_append(c, op, 1) == 0, "append failed");
    CHECK(c->out_len == want_len && memcmp(c->out, want, want_len) == 0 && c->owed == 2,
          "encoded as '%.*s', want '%.*s'", (int)c->out_len, c->out, (int)want_len, want);
    rl_conn_free(c);
}
#define NATIVE_ENCODES(op, native, lit) native_encodes(op, native, lit, sizeof(lit) - 1)

UNIT_TEST(test_native_release_form)
{
    rl_op unlock = {RL_OP_UNLOCK, "lock:r", 6, "tok", 3, 0};
    rl_op tagged = {RL_OP_UNLOCK, "lock:{t}r", 9, "tok", 3, 0};
    rl_endpoint ep = {0};
    rl_conn *c;
    int s;

    unlock.native = 1;
    tagged.native = 1;
    /* the queue key as the scripts name it (lock:r: slot tag "mio") */
    NATIVE_ENCODES(&unlock, RL_NATIVE_DELIFEQ,
                   "*3\r\n$7\r\nDELIFEQ\r\n$6\r\nlock:r\r\n$3\r\ntok\r\n*2\r\n$6\r\nEXISTS\r\n$13\r\nlock:r\0q{mio}\r\n");
    NATIVE_ENCODES(&unlock, RL_NATIVE_DELEX,
                   "*4\r\n$5\r\nDELEX\r\n$6\r\nlock:r\r\n$4\r\nIFEQ\r\n$3\r\ntok\r\n"
                   "*2\r\n$6\r\nEXISTS\r\n$13\r\nlock:r\0q{mio}\r\n");
    NATIVE_ENCODES(&tagged, RL_NATIVE_DELIFEQ,
                   "*3\r\n$7\r\nDELIFEQ\r\n$9\r\nlock:{t}r\r\n$3\r\ntok\r\n*2\r\n$6\r\nEXISTS\r\n$11\r\nlock:{t}r\0q\r\n");

    ep.host = "h";
    ep.port = 1;
    c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    for (s = RL_NATIVE_UNKNOWN; s <= RL_NATIVE_DELEX; s++) {
        c->native = s;
        CHECK(rl_native_release_fits(c, &unlock, RL_FORM_FIRST) == (s == RL_NATIVE_DELIFEQ || s == RL_NATIVE_DELEX),
              "native %d", s);
    }
    c->native = RL_NATIVE_DELEX;
    CHECK(!rl_native_release_fits(c, &unlock, RL_FORM_EVAL) && !rl_native_release_fits(c, &unlock, RL_FORM_RETRY),
          "a resend or a retry: the script");
    unlock.native = 0;
    CHECK(!rl_native_release_fits(c, &unlock, RL_FORM_FIRST), "not allowed by the caller");
    unlock.native = 1;
    unlock.force = 1;
    CHECK(!rl_native_release_fits(c, &unlock, RL_FORM_FIRST), "forceUnlock");
    unlock.force = 0;
    unlock.asking = 1;
    CHECK(!rl_native_release_fits(c, &unlock, RL_FORM_FIRST), "after ASK");
    unlock.asking = 0;
    unlock.repeat = 1;
    CHECK(!rl_native_release_fits(c, &unlock, RL_FORM_FIRST), "a repeat");
    unlock.repeat = 0;
    unlock.kind = RL_OP_EXTEND;
    CHECK(!rl_native_release_fits(c, &unlock, RL_FORM_FIRST), "not a release");
    rl_conn_free(c);
}

UNIT_TEST(test_native_wake_script)
{
    rl_op wake = {RL_OP_WAKE, "lock:{t}r", 9, "tok", 3, 0};
    rl_endpoint ep = {0};
    rl_conn *c;
    static const char want_head[] = "*22\r\n$7\r\nEVALSHA\r\n$40\r\n";
    static const char want_keys[] = "$2\r\n19\r\n$9\r\nlock:{t}r\r\n$11\r\nlock:{t}r\0q\r\n$11\r\nlock:{t}r\0r\r\n"
                                    "$11\r\nlock:{t}r\0A\r\n";

    ep.host = "h";
    ep.port = 1;
    c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    rl_script_set_sha(RL_SCRIPT_WAKE, "0123456789012345678901234567890123456789");
    /* KEYS: the lock, its queue, reservation and 16 wake streams; no ARGV */
    CHECK(rl_op_append(c, &wake, RL_FORM_FIRST, 1) == 0 && c->out_len > sizeof want_head + 42
              && memcmp(c->out, want_head, sizeof want_head - 1) == 0
              && memcmp(c->out + sizeof want_head - 1 + 42, want_keys, sizeof want_keys - 1) == 0
              && memcmp(c->out + c->out_len - 16, "$11\r\nlock:{t}r\0P\r\n" + 2, 16) == 0,
          "wake: '%.*s'", (int)c->out_len, c->out);
    CHECK(strstr(rl_script_source(RL_SCRIPT_WAKE), "exists") != NULL, "the wake looks whether the lock is free");
    rl_conn_free(c);
}

UNIT_TEST(test_native_refused)
{
    static const struct {
        const char *err;
        int want;
    } cases[] = {
        {"ERR unknown command 'DELIFEQ', with args beginning with: 'k' 'v'", 2},
        {"NOPERM User bob has no permissions to run the 'delifeq' command", 2},
        {"ERR wrong number of arguments for 'delex' command", 2},
        {"ERR syntax error", 2},
        {"ERR unsupported command", 2},
        {"WRONGTYPE Operation against a key holding the wrong kind of value", 1},
        {"MOVED 3999 127.0.0.1:6381", 0},
        {"ASK 3999 127.0.0.1:6381", 0},
        {"TRYAGAIN Multiple keys request during rehashing of slot", 0},
        {"CLUSTERDOWN The cluster is down", 0},
        {"READONLY You can't write against a read only replica.", 0},
        {"NOAUTH Authentication required.", 0},
        {"WRONGPASS invalid username-password pair", 0},
        {"LOADING Redis is loading the dataset in memory", 0},
        {"BUSY Redis is busy running a script.", 0},
        {"MASTERDOWN Link with MASTER is down", 0},
        {"ERR Protocol error: unauthenticated multibulk length", 0},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(rl_native_refused(cases[i].err, strlen(cases[i].err)) == cases[i].want, "%s: %d", cases[i].err,
              rl_native_refused(cases[i].err, strlen(cases[i].err)));
    }
    CHECK(strcmp(rl_native_name(RL_NATIVE_DELEX), "DELEX") == 0 && strcmp(rl_native_name(RL_NATIVE_NONE), "none") == 0
              && strcmp(rl_native_name(RL_NATIVE_UNKNOWN), "unknown") == 0, "names");
}
