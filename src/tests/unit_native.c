/* The native release (src/lock/rl_native.h): when it is sent, the commands
 * written, how the node's refusal and EXISTS's reply are read, and the
 * engine's path for it (the release script after a refusal). */
#include <stdio.h>
#include <string.h>
#include <hiredis/hiredis.h>
#include "unit.h"
#include "../lock/rl_native.h"
#include "../lock/rl_lockops.h"
#include "../lock/rl_lock_keys.h"
#include "../base/rl_status.h"

static rl_lock_op plain_release(void)
{
    rl_lock_op op = {.kind = RL_OP_UNLOCK, .key = "lock:a", .key_len = 6, .token = "tok1", .token_len = 4, .plain = 1};
    return op;
}

/* Only a plain lock's first send, where the server has a command. */
UNIT_TEST(test_native_fits)
{
    rl_conn *c = unit_conn(NULL, NULL, 0);
    rl_lock_op op = plain_release(), other;

    CHECK(!rl_native_release_fits(c, &op, RL_FORM_FIRST, 0), "not known yet: the script");
    c->caps.delex = c->caps.delifeq = 0;
    CHECK(!rl_native_release_fits(c, &op, RL_FORM_FIRST, 0), "neither: the script");
    c->caps.delex = 1;
    CHECK(rl_native_release_fits(c, &op, RL_FORM_FIRST, 0), "DELEX: native");
    c->caps.delex = 0;
    c->caps.delifeq = 1;
    CHECK(rl_native_release_fits(c, &op, RL_FORM_FIRST, 0), "DELIFEQ: native");
    CHECK(!rl_native_release_fits(c, &op, RL_FORM_EVAL, 0) && !rl_native_release_fits(c, &op, RL_FORM_RETRY, 0)
              && !rl_native_release_fits(c, &op, RL_FORM_RETRY_EVAL, 0),
          "only the first form (EVAL after a refusal, a retry's safe form)");
    CHECK(!rl_native_release_fits(c, &op, RL_FORM_FIRST, 1), "not behind ASKING");
    other = op, other.plain = 0;
    CHECK(!rl_native_release_fits(c, &other, RL_FORM_FIRST, 0), "not held as a lock here: the script");
    other = op, other.force = 1;
    CHECK(!rl_native_release_fits(c, &other, RL_FORM_FIRST, 0), "forceUnlock: the script");
    other = op, other.done = 1;
    CHECK(!rl_native_release_fits(c, &other, RL_FORM_FIRST, 0), "a done release wakes every waiter: the script");
    other = op, other.one_key = 1;
    CHECK(!rl_native_release_fits(c, &other, RL_FORM_FIRST, 0), "narrowed to the lock key: its script");
    other = op, other.repeat = 1;
    CHECK(!rl_native_release_fits(c, &other, RL_FORM_FIRST, 0), "a repeat: the script");
    other = op, other.kind = RL_OP_EXTEND;
    CHECK(!rl_native_release_fits(c, &other, RL_FORM_FIRST, 0), "not another kind of op");
    rl_conn_free(c);
}

/* DELIFEQ where the server has both, else DELEX IFEQ; then EXISTS of the queue. */
UNIT_TEST(test_native_written)
{
    rl_lock_op op = plain_release();
    rl_lock_keys k;
    char want[512];
    int q = RL_KEY_SLOT(RL_KEY_QUEUE), len;
    rl_conn *c;

    CHECK(rl_lock_keys_make(&k, "lock:a", 6) == 0, "keys");
    c = unit_conn(NULL, NULL, 0);
    c->caps.delex = c->caps.delifeq = 1;
    CHECK(rl_native_release_append(c, &op, 1) == 0 && c->owed == 2, "two replies owed");
    len = snprintf(want, sizeof want,
                   "*3\r\n$7\r\nDELIFEQ\r\n$6\r\nlock:a\r\n$4\r\ntok1\r\n*2\r\n$6\r\nEXISTS\r\n$%zu\r\n", k.len[q]);
    memcpy(want + len, k.buf[q], k.len[q]);
    memcpy(want + len + k.len[q], "\r\n", 2);
    CHECK(unit_out_is(c, want, (size_t)len + k.len[q] + 2), "DELIFEQ preferred, then EXISTS of the queue");
    rl_conn_free(c);
    c = unit_conn(NULL, NULL, 0);
    c->caps.delex = 1;
    c->caps.delifeq = 0;
    CHECK(rl_native_release_append(c, &op, 1) == 0, "appended");
    len = snprintf(want, sizeof want,
                   "*4\r\n$5\r\nDELEX\r\n$6\r\nlock:a\r\n$4\r\nIFEQ\r\n$4\r\ntok1\r\n*2\r\n$6\r\nEXISTS\r\n$%zu\r\n",
                   k.len[q]);
    memcpy(want + len, k.buf[q], k.len[q]);
    memcpy(want + len + k.len[q], "\r\n", 2);
    CHECK(unit_out_is(c, want, (size_t)len + k.len[q] + 2), "DELEX IFEQ");
    rl_conn_free(c);
    rl_lock_keys_free(&k);
}

/* The node's refusal of the command sends the script, and the connection
 * stops using it; WRONGTYPE sends the script for that release only; the
 * node's own state is the release's error. */
UNIT_TEST(test_native_refused)
{
    static const struct {
        const char *err;
        int refused, off;
    } cases[] = {
        {"ERR unknown command 'DELEX', with args beginning with: 'lock:a' 'IFEQ' 'tok1' ", 1, 1},
        {"ERR unknown command 'delifeq', with args beginning with: 'lock:a' 'tok1' ", 1, 1},
        {"NOPERM User u has no permissions to run the 'delex' command", 1, 1},
        {"NOPERM this user has no permissions to run the 'delifeq' command", 1, 1},
        {"WRONGTYPE Operation against a key holding the wrong kind of value", 1, 0},
        {"ERR unknown command 'EVALSHA', with args beginning with: 'delex' ", 0, 0}, /* the args echo a key */
        {"NOPERM User u has no permissions to run the 'evalsha' command", 0, 0},
        {"NOPERM No permissions to access a key", 0, 0},
        {"MOVED 15495 127.0.0.1:7002", 0, 0},
        {"TRYAGAIN Multiple keys request during rehashing of slot", 0, 0},
        {"READONLY You can't write against a read only replica.", 0, 0},
        {"LOADING Redis is loading the dataset in memory", 0, 0},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rl_conn *c = unit_conn(NULL, NULL, 0);
        c->caps.delex = c->caps.delifeq = 1;
        CHECK(rl_native_refused(c, cases[i].err, strlen(cases[i].err)) == cases[i].refused, "case %zu: refused", i);
        CHECK((c->caps.delex == 0 && c->caps.delifeq == 0) == cases[i].off, "case %zu: off %d %d", i, c->caps.delex,
              c->caps.delifeq);
        rl_conn_free(c);
    }
}

/* Through the lock family's judge: a refusal is a NOSCRIPT (the engine
 * sends the release again as EVAL: the script); the same error to a
 * release the caller does not hold as a lock is the release's error. */
UNIT_TEST(test_native_judge)
{
    rl_conn *c = unit_conn(NULL, NULL, 0);
    rl_lock_op op = plain_release(), other = op;
    rl_result out;
    char err[256];
    void *refused = UNIT_REPLY("-NOPERM User u has no permissions to run the 'delex' command\r\n");
    void *one = UNIT_REPLY(":1\r\n"), *zero = UNIT_REPLY(":0\r\n"), *bulk = UNIT_REPLY("$1\r\n1\r\n");

    c->caps.delex = 1;
    other.plain = 0;
    CHECK(rl_lock_op_judge(&other, c, refused, &out, err, sizeof err) == RL_REPLY_ERROR && c->caps.delex == 1,
          "not a plain release: its error, the command kept");
    CHECK(rl_lock_op_judge(&op, c, refused, &out, err, sizeof err) == RL_REPLY_NOSCRIPT && c->caps.delex == 0,
          "refused: the script, and no more");
    CHECK(rl_lock_op_judge(&op, c, one, &out, err, sizeof err) == RL_REPLY_YES && out.value == 1, "deleted: yes");
    CHECK(rl_lock_op_judge(&op, c, zero, &out, err, sizeof err) == RL_REPLY_NO, "not ours (expired): no");
    out.value = 1;
    CHECK(rl_native_judge_queue(zero, &out) == RL_REPLY_YES && out.value == 1, "no queue: released, nothing owed");
    CHECK(rl_native_judge_queue(one, &out) == RL_REPLY_YES && out.value == RL_RELEASE_WAKE_OWED,
          "a queue: released, the wake owed");
    out.value = 1;
    CHECK(rl_native_judge_queue(bulk, &out) == RL_REPLY_YES && out.value == RL_RELEASE_WAKE_OWED,
          "a reply not understood: the wake looks for itself");
    freeReplyObject(refused);
    freeReplyObject(one);
    freeReplyObject(zero);
    freeReplyObject(bulk);
    rl_conn_free(c);
}
