/* The reply guard: what lock commands get passes, in any chunking; what a
 * hostile server sends is refused at the byte that makes it so, before
 * hiredis's reader would buffer it. */
#include <string.h>
#include <hiredis/hiredis.h>
#include "../transport/rl_reply_guard.h"
#include "unit.h"

/* Scans s (len bytes) in one chunk against limits l (NULL: defaults), with
 * `owed` replies asked for. Returns the scan's result; *ok and why as the
 * scan gave them. */
static int scan(const rl_reply_limits *l, unsigned owed, const char *s, size_t len, size_t *ok, char *why,
                size_t whylen)
{
    static rl_reply_limits defaults;
    rl_reply_guard g;
    rl_reply_limits_default(&defaults);
    rl_reply_guard_init(&g, l ? l : &defaults);
    rl_reply_guard_expect(&g, owed);
    why[0] = '\0';
    return rl_reply_guard_scan(&g, s, len, ok, why, whylen);
}

/* s is accepted whole, as `replies` complete replies, in every split into
 * two chunks and byte by byte; hiredis parses it to the same count. */
static void accepted(const char *s, size_t len, unsigned replies)
{
    rl_reply_limits l;
    rl_reply_guard g;
    size_t cut, i;
    char why[RL_REPLY_WHY_LEN];
    redisReader *r;
    void *reply;
    unsigned got = 0;

    rl_reply_limits_default(&l);
    for (cut = 0; cut <= len; cut++) {
        int rc;
        rl_reply_guard_init(&g, &l);
        rl_reply_guard_expect(&g, replies);
        rc = rl_reply_guard_scan(&g, s, cut, NULL, why, sizeof why);
        rc = rc || rl_reply_guard_scan(&g, s + cut, len - cut, NULL, why, sizeof why);
        CHECK(rc == 0 && g.complete == replies && rl_reply_guard_idle(&g),
              "%.*s split at %zu: rc %d complete %llu (%s)", (int)len, s, cut, rc, (unsigned long long)g.complete,
              rc ? why : "");
    }
    rl_reply_guard_init(&g, &l);
    rl_reply_guard_expect(&g, replies);
    for (i = 0; i < len; i++) {
        if (rl_reply_guard_scan(&g, s + i, 1, NULL, why, sizeof why) != 0) {
            break;
        }
    }
    CHECK(i == len && g.complete == replies, "%.*s byte by byte: stopped at %zu", (int)len, s, i);

    r = redisReaderCreate();
    redisReaderFeed(r, s, len);
    while (redisReaderGetReply(r, &reply) == REDIS_OK && reply != NULL) {
        got++;
        freeReplyObject(reply);
    }
    CHECK(r->err == 0 && got == replies, "hiredis on %.*s: err %d, %u replies", (int)len, s, r->err, got);
    redisReaderFree(r);
}

#define ACCEPTED(lit, n) accepted(lit, sizeof(lit) - 1, n)

/* s is refused with a reason containing want, at byte `at` (the first
 * byte not acceptable), whether it comes in one chunk or byte by byte. */
static void refused_with(const rl_reply_limits *l, unsigned owed, const char *s, size_t len, size_t at,
                         const char *want)
{
    static rl_reply_limits defaults;
    rl_reply_guard g;
    size_t ok = (size_t)-1, i;
    char why[RL_REPLY_WHY_LEN], again[RL_REPLY_WHY_LEN];
    int rc = scan(l, owed, s, len, &ok, why, sizeof why);

    CHECK(rc == -1 && ok == at && strstr(why, want) != NULL, "%.*s: rc %d at %zu (want %zu), '%s' (want '%s')",
          (int)len, s, rc, ok, at, why, want);

    rl_reply_limits_default(&defaults);
    rl_reply_guard_init(&g, l ? l : &defaults);
    rl_reply_guard_expect(&g, owed);
    for (i = 0; i < len; i++) {
        if (rl_reply_guard_scan(&g, s + i, 1, &ok, why, sizeof why) != 0) {
            break;
        }
    }
    CHECK(i == at && ok == 0 && strstr(why, want) != NULL, "%.*s byte by byte: refused at %zu, '%s'", (int)len, s, i,
          why);
    /* refused stays refused, at its first byte */
    CHECK(rl_reply_guard_scan(&g, "+OK\r\n", 5, &ok, again, sizeof again) == -1 && ok == 0 && strcmp(again, why) == 0,
          "refusal is not sticky: '%s'", again);
}

#define REFUSED(lit, at, want) refused_with(NULL, 1, lit, sizeof(lit) - 1, at, want)

UNIT_TEST(test_guard_lock_replies)
{
    ACCEPTED("+OK\r\n", 1); /* SET NX: taken */
    ACCEPTED("$-1\r\n", 1); /* SET NX: held */
    ACCEPTED(":1\r\n", 1);  /* scripts */
    ACCEPTED(":0\r\n", 1);
    ACCEPTED(":-3\r\n", 1); /* ACQUIRE_WAIT: taken */
    ACCEPTED(":-2\r\n", 1);
    ACCEPTED(":9223372036854775807\r\n", 1);
    ACCEPTED(":-9223372036854775808\r\n", 1);
    ACCEPTED("-ERR wrong number of arguments for 'set' command\r\n", 1);
    ACCEPTED("-NOSCRIPT No matching script. Please use EVAL.\r\n", 1);
    ACCEPTED("-WRONGPASS invalid username-password pair or user is disabled.\r\n", 1);
    ACCEPTED("*1\r\n*2\r\n$10\r\n{lock:a}\0w\r\n*1\r\n*2\r\n$3\r\n1-0\r\n*2\r\n$1\r\nw\r\n$3\r\n123\r\n",
             1);            /* XREAD: a wake */
    ACCEPTED("*-1\r\n", 1); /* XREAD timed out */
    ACCEPTED("*0\r\n", 1);
    ACCEPTED("$0\r\n\r\n", 1);
    ACCEPTED("$4\r\na\r\nb\r\n", 1);           /* CRLF inside a bulk string is data */
    ACCEPTED("+OK\r\n+OK\r\n:1\r\n:1\r\n", 4); /* AUTH, SELECT, undo, command */
    ACCEPTED("*2\r\n*1\r\n:1\r\n$-1\r\n", 1);
    ACCEPTED("*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n", 1); /* depth 5 */
    ACCEPTED("*3\r\n*0\r\n*-1\r\n*2\r\n+a\r\n-b\r\n", 1);
}

UNIT_TEST(test_guard_refuses)
{
    char big[RL_REPLY_MAX_LINE + 16];
    rl_reply_limits l;
    size_t ok;
    char why[RL_REPLY_WHY_LEN];

    /* the two servers */
    REFUSED("*2147483647\r\n", 12, "array of 2147483647 elements (limit 64)");
    REFUSED("$9000000000000\r\nxxxxxxxx", 15, "bulk reply of 9000000000000 bytes (limit 65536)");
    REFUSED("*65\r\n", 4, "array of 65 elements (limit 64)");
    REFUSED("$65537\r\n", 7, "bulk reply of 65537 bytes (limit 65536)");
    /* unknown type bytes, RESP3 ones included (never asked for) */
    REFUSED("x", 0, "unknown reply type byte 0x78");
    REFUSED("%1\r\n", 0, "unknown reply type byte 0x25");
    REFUSED("_\r\n", 0, "unknown reply type byte 0x5f");
    REFUSED("*1\r\n!3\r\n", 4, "unknown reply type byte 0x21");
    REFUSED("\r\n", 0, "unknown reply type");
    /* malformed numbers */
    REFUSED(":12x\r\n", 3, "integer reply is not a number");
    REFUSED(":\r\n", 2, "integer reply is not a number");
    REFUSED(":-\r\n", 3, "integer reply is not a number");
    REFUSED(": 1\r\n", 1, "integer reply is not a number");
    REFUSED(":+1\r\n", 1, "integer reply is not a number");
    REFUSED(":01\r\n", 2, "leading zero");
    REFUSED(":-0\r\n", 2, "(-0)");
    REFUSED(":1-\r\n", 2, "not a number");
    REFUSED(":9223372036854775808\r\n", 19, "integer reply out of range");
    REFUSED(":-9223372036854775809\r\n", 20, "integer reply out of range");
    REFUSED(":99999999999999999999999\r\n", 19, "out of range");
    REFUSED("$-5\r\n", 4, "bulk length -5");
    REFUSED("$-10\r\n", 5, "bulk length -10");
    REFUSED("*-2\r\n", 4, "array length -2");
    REFUSED("$abc\r\n", 1, "bulk length is not a number");
    REFUSED("*1a\r\n", 2, "array length is not a number");
    REFUSED("$\r\n", 2, "bulk length is not a number");
    /* CR and LF only as a CRLF */
    REFUSED("+OK\n", 3, "LF without CR");
    REFUSED("+O\rK\r\n", 3, "CR without LF");
    REFUSED(":1\r\r\n", 3, "CR without LF");
    REFUSED("$3\r\nabcd\r\n", 7, "bulk reply not followed by CRLF");
    REFUSED("$3\r\nabc\rx", 8, "bulk reply not followed by CRLF");
    /* nesting */
    REFUSED("*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n", 20, "arrays nested deeper than 5");
    REFUSED("*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*-1\r\n", 20, "arrays nested deeper than 5");
    /* replies nobody asked for: a flood of +OK, or anything when nothing is owed */
    REFUSED("+OK\r\n+OK\r\n", 5, "reply nobody asked for");
    REFUSED("*1\r\n:1\r\n:2\r\n", 8, "reply nobody asked for");
    refused_with(NULL, 0, "+OK\r\n", 5, 0, "reply nobody asked for");
    refused_with(NULL, 2, "$-1\r\n:1\r\n-ERR x\r\n", 17, 9, "reply nobody asked for");

    /* a line without CRLF: refused at the first byte beyond the limit */
    memset(big, 'a', sizeof big);
    big[0] = '+';
    refused_with(NULL, 1, big, sizeof big, RL_REPLY_MAX_LINE + 1, "line longer than 65536 bytes without CRLF");
    big[0] = '-';
    refused_with(NULL, 1, big, sizeof big, RL_REPLY_MAX_LINE + 1, "line longer than 65536 bytes");
    /* a line of exactly the limit passes */
    big[0] = '+';
    big[RL_REPLY_MAX_LINE + 1] = '\r';
    big[RL_REPLY_MAX_LINE + 2] = '\n';
    CHECK(scan(NULL, 1, big, RL_REPLY_MAX_LINE + 3, &ok, why, sizeof why) == 0, "line at the limit: %s", why);

    /* the whole reply's size: 4 bulk strings of 64 KiB do not fit in 256 KiB */
    {
        static char reply[4 * (RL_REPLY_MAX_BULK + 16) + 16];
        size_t n = (size_t)sprintf(reply, "*4\r\n"), at = 0;
        int i;
        for (i = 0; i < 4; i++) {
            n += (size_t)sprintf(reply + n, "$%d\r\n", RL_REPLY_MAX_BULK);
            if (i == 3) {
                at = n - 1; /* the header's LF */
            }
            memset(reply + n, 'x', RL_REPLY_MAX_BULK);
            n += RL_REPLY_MAX_BULK;
            memcpy(reply + n, "\r\n", 2);
            n += 2;
        }
        refused_with(NULL, 1, reply, n, at, "makes the reply larger than 262144 bytes");
    }

    /* limits are per guard: raised, the same bytes pass */
    rl_reply_limits_default(&l);
    l.max_elements = 1u << 20;
    l.max_bulk = (size_t)1 << 44;
    l.max_reply = (size_t)1 << 45;
    CHECK(scan(&l, 1, "*100000\r\n", 9, &ok, why, sizeof why) == 0, "raised elements: %s", why);
    CHECK(scan(&l, 1, "$9000000000000\r\nxx", 18, &ok, why, sizeof why) == 0, "raised bulk: %s", why);
    /* and lowered, tighter: max_reply counts every byte */
    rl_reply_limits_default(&l);
    l.max_reply = 4;
    refused_with(&l, 1, "+OK\r\n", 5, 4, "reply larger than 4 bytes");
    refused_with(&l, 1, "*1\r\n:1\r\n", 8, 4, "reply larger than 4 bytes");
    l.max_reply = 5;
    CHECK(scan(&l, 2, "+OK\r\n+OK\r\n", 10, &ok, why, sizeof why) == 0, "reply at max_reply: %s", why);
}

UNIT_TEST(test_guard_depth_cap)
{
    rl_reply_limits l;
    rl_reply_guard g;
    char why[RL_REPLY_WHY_LEN] = "";
    const char *deep = "*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n";

    rl_reply_limits_default(&l);
    l.max_depth = 100; /* beyond what hiredis 0.14 reads: capped */
    rl_reply_guard_init(&g, &l);
    rl_reply_guard_expect(&g, 1);
    CHECK(rl_reply_guard_scan(&g, deep, strlen(deep), NULL, why, sizeof why) == -1
              && strstr(why, "nested deeper than 7"),
          "depth cap: '%s'", why);
    l.max_depth = 0; /* no arrays at all */
    rl_reply_guard_init(&g, &l);
    rl_reply_guard_expect(&g, 1);
    CHECK(rl_reply_guard_scan(&g, "*0\r\n", 4, NULL, why, sizeof why) == -1, "depth 0 took an array");
}

UNIT_TEST(test_guard_reset_and_expect)
{
    rl_reply_limits l;
    rl_reply_guard g;
    char why[RL_REPLY_WHY_LEN] = "";

    rl_reply_limits_default(&l);
    rl_reply_guard_init(&g, &l);
    rl_reply_guard_expect(&g, 1);
    CHECK(rl_reply_guard_scan(&g, "$5\r\nab", 6, NULL, why, sizeof why) == 0 && !rl_reply_guard_idle(&g),
          "partial bulk");
    /* a reply started counts against what is owed even before it is whole */
    CHECK(rl_reply_guard_scan(&g, "cde\r\n+OK\r\n", 10, NULL, why, sizeof why) == -1, "second reply passed");
    rl_reply_guard_reset(&g);
    CHECK(g.limits == &l && g.expected == 0 && rl_reply_guard_idle(&g), "reset");
    CHECK(rl_reply_guard_scan(&g, "+OK\r\n", 5, NULL, why, sizeof why) == -1, "reset still owes");
    rl_reply_guard_reset(&g);
    rl_reply_guard_expect(&g, 2);
    CHECK(rl_reply_guard_scan(&g, "+OK\r\n", 5, NULL, why, sizeof why) == 0 && g.complete == 1, "first");
    rl_reply_guard_expect(&g, 1); /* asked again before the second came */
    CHECK(rl_reply_guard_scan(&g, ":1\r\n:2\r\n", 8, NULL, why, sizeof why) == 0 && g.complete == 3, "more");
    /* raising the limits on a live guard takes effect at once */
    rl_reply_guard_expect(&g, 1);
    l.max_bulk = 1;
    CHECK(rl_reply_guard_scan(&g, "$2\r\n", 4, NULL, why, sizeof why) == -1, "lowered bulk");
}

/* Every header of the servers split at every byte: refused at the
 * same byte, whatever the chunks. */
UNIT_TEST(test_guard_split_everywhere)
{
    static const char *const streams[] = {
        "*2147483647\r\n", "$9000000000000\r\nzzzz", "$-5\r\n", ":12x\r\n", "+OK\r\n+OK\r\n",
    };
    static const size_t at[] = {12, 15, 4, 3, 5};
    size_t s, cut, cut2;

    for (s = 0; s < sizeof streams / sizeof *streams; s++) {
        size_t len = strlen(streams[s]);
        for (cut = 0; cut <= len; cut++) {
            for (cut2 = cut; cut2 <= len; cut2++) {
                rl_reply_limits l;
                rl_reply_guard g;
                size_t ok = 0, where;
                char why[RL_REPLY_WHY_LEN];
                int rc;

                rl_reply_limits_default(&l);
                rl_reply_guard_init(&g, &l);
                rl_reply_guard_expect(&g, 1);
                rc = rl_reply_guard_scan(&g, streams[s], cut, &ok, why, sizeof why);
                where = ok;
                if (rc == 0) {
                    rc = rl_reply_guard_scan(&g, streams[s] + cut, cut2 - cut, &ok, why, sizeof why);
                    where = cut + ok;
                }
                if (rc == 0) {
                    rc = rl_reply_guard_scan(&g, streams[s] + cut2, len - cut2, &ok, why, sizeof why);
                    where = cut2 + ok;
                }
                CHECK(rc == -1 && where == at[s], "%s cut %zu,%zu: rc %d at %zu", streams[s], cut, cut2, rc, where);
            }
        }
    }
}
