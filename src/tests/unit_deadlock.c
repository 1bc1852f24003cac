/* The deadlock script's replies (rl_deadlock.c): a cycle whose long lock
 * keys come by reference ([party, length]), and DEADLOCK_PART's parts;
 * what they are written as. */
#include <string.h>
#include <hiredis/hiredis.h>
#include "unit.h"
#include "../base/rl_status.h"
#include "../lock/rl_deadlock.h"
#include "../lock/rl_lockops.h"

/* What a judge of `resp` (len bytes) says. */
static int judge(const rl_lock_op *op, const char *resp, size_t len)
{
    redisReader *r = redisReaderCreate();
    void *reply = NULL;
    long long v;
    char err[128];
    int verdict = -1;
    redisReaderFeed(r, resp, len);
    if (redisReaderGetReply(r, &reply) == REDIS_OK && reply != NULL) {
        verdict = rl_deadlock_op_judge(op, reply, &v, err, sizeof err);
        freeReplyObject(reply);
    }
    redisReaderFree(r);
    return verdict;
}

typedef struct told {
    int n, ends;
    char last[32];
} told;

static void tell(void *ctx, const char *s, size_t len)
{
    told *t = ctx;
    if (s == NULL) {
        t->ends++;
        return;
    }
    t->n++;
    snprintf(t->last, sizeof t->last, "%.*s", (int)len, s);
}

#define JUDGE(op, lit) judge(op, lit, sizeof(lit) - 1)

UNIT_TEST(test_deadlock_replies)
{
    told t = {0};
    rl_lock_op cyc = {.kind = RL_OP_DEADLOCK, .on_key = tell, .on_key_ctx = &t};
    rl_lock_op part = {.kind = RL_OP_DEADLOCK_PART, .on_key = tell, .on_key_ctx = &t};

    CHECK(JUDGE(&cyc, ":0\r\n") == RL_REPLY_NO, "no cycle: the edge recorded");
    CHECK(JUDGE(&cyc, "*4\r\n$6\r\nlock:a\r\n$2\r\nt1\r\n$6\r\nlock:b\r\n$2\r\nt2\r\n") == RL_REPLY_YES && t.n == 4
              && t.ends == 1 && strcmp(t.last, "t2") == 0,
          "a cycle told: %d, %d ends", t.n, t.ends);
    /* a long lock key by reference, only where a resource goes, and only longer than the script sends whole */
    CHECK(JUDGE(&cyc, "*4\r\n*2\r\n$16\r\n0123456789abcdef\r\n:70000\r\n$2\r\nt1\r\n$6\r\nlock:b\r\n$2\r\nt2\r\n")
              == RL_REPLY_YES,
          "a reference where a resource goes");
    CHECK(JUDGE(&cyc, "*4\r\n$6\r\nlock:a\r\n*2\r\n$16\r\n0123456789abcdef\r\n:70000\r\n$6\r\nlock:b\r\n$2\r\nt2\r\n")
              == RL_REPLY_ERROR,
          "a reference where a token goes");
    CHECK(JUDGE(&cyc, "*2\r\n*2\r\n$16\r\n0123456789abcdef\r\n:5\r\n$2\r\nt1\r\n") == RL_REPLY_ERROR,
          "a reference to a short key");
    t.n = 0;
    CHECK(JUDGE(&part, "$5\r\nabcde\r\n") == RL_REPLY_YES && t.n == 1 && strcmp(t.last, "abcde") == 0, "a part told");
    CHECK(JUDGE(&part, ":0\r\n") == RL_REPLY_NO && t.n == 1, "no such edge: nothing told");
}

UNIT_TEST(test_deadlock_written)
{
    rl_endpoint ep = {0};
    rl_conn *c;
    rl_lock_op part = {.kind = RL_OP_DEADLOCK_PART,
                       .key = "lock:\0waits",
                       .key_len = 11,
                       .waiter = "0123456789abcdef",
                       .waiter_len = 16,
                       .waits_for_len = 70000,
                       .part_from = 32768};
    static const char want[]
        = "*8\r\n$7\r\nEVALSHA\r\n$40\r\n0123456789012345678901234567890123456789\r\n$1\r\n1\r\n"
          "$11\r\nlock:\0waits\r\n$16\r\n0123456789abcdef\r\n$5\r\n32768\r\n$5\r\n32768\r\n$5\r\n70000\r\n";
    ep.host = "h";
    ep.port = 1;
    c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    CHECK(rl_op_append(c, &part, RL_FORM_FIRST, 1) == 0 && c->out_len == sizeof want - 1
              && memcmp(c->out, want, sizeof want - 1) == 0,
          "a part asked for: '%.*s'", (int)c->out_len, c->out);
    rl_conn_free(c);
}
