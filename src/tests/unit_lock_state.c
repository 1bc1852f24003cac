/* What the lock layer keeps per connection (rl_lock_state.h): the deferred
 * undos' bounds and order, the wake cursor of one waiter at a time,
 * which a WAKE_WAIT reads from and its judged reply moves on, and the
 * result a done wake hands a guard's waiter. */
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>
#include "unit.h"
#include "../lock/rl_lock_state.h"
#include "../lock/rl_lockops.h"

static int wrote(const rl_conn *c, const char *s)
{
    return c->out_len > 0 && memmem(c->out, c->out_len, s, strlen(s)) != NULL;
}

UNIT_TEST(test_lock_state_undo_bounds)
{
    rl_conn *c = unit_conn(NULL, NULL, 0);
    char key[48];
    int i, kept = 0;

    CHECK(rl_undos_pending(c) == 0 && rl_undos_append(c, 1) == 0 && c->out_len == 0 && c->attached == NULL,
          "nothing deferred, nothing made");
    for (i = 0; i < RL_CONN_MAX_UNDO + 3; i++) {
        snprintf(key, sizeof key, "lock:k%d", i);
        rl_undo_defer(c, key, strlen(key), "tok", 3);
    }
    CHECK(rl_undos_pending(c) == RL_CONN_MAX_UNDO, "kept %d", rl_undos_pending(c));
    rl_conn_close(c); /* a reconnect: the undos wait for the next socket */
    CHECK(rl_undos_pending(c) == RL_CONN_MAX_UNDO, "kept across a close");
    CHECK(rl_undos_append(c, 1) == RL_CONN_MAX_UNDO && c->owed == RL_CONN_MAX_UNDO && rl_undos_pending(c) == 0,
          "all appended, then forgotten");
    for (i = 0; i < RL_CONN_MAX_UNDO + 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "lock:k%d", i);
        snprintf(key, sizeof key, "$%zu\r\n%s\r\n", strlen(name), name);
        kept += wrote(c, key) == (i < RL_CONN_MAX_UNDO);
    }
    CHECK(kept == RL_CONN_MAX_UNDO + 3, "the oldest kept, the newest dropped");
    rl_undo_defer(c, "lock:again", 10, "tok", 3);
    CHECK(rl_undos_pending(c) == 1, "room again once sent");
    rl_conn_free(c); /* frees the record and the undo not sent (ASan: no leak) */
}

UNIT_TEST(test_lock_state_wake_cursor)
{
    rl_conn *c = unit_conn(NULL, NULL, 0);
    char long_id[RL_WAKE_ID_MAX + 1];

    CHECK(rl_wake_cursor(c, "w1", 2) == NULL, "no cursor yet");
    rl_wake_cursor_set(c, "w1", 2, "5-0");
    CHECK(rl_wake_cursor(c, "w1", 2) != NULL && strcmp(rl_wake_cursor(c, "w1", 2), "5-0") == 0, "w1's cursor");
    CHECK(rl_wake_cursor(c, "w2", 2) == NULL && rl_wake_cursor(c, "w", 1) == NULL
              && rl_wake_cursor(c, "w10", 3) == NULL,
          "no other waiter's");
    rl_undo_defer(c, "lock:a", 6, "tok", 3);
    rl_wake_cursor_set(c, "w2", 2, "6-1");
    CHECK(rl_wake_cursor(c, "w1", 2) == NULL && strcmp(rl_wake_cursor(c, "w2", 2), "6-1") == 0
              && rl_undos_pending(c) == 1,
          "one waiter's at a time, beside the undos");
    memset(long_id, '1', RL_WAKE_ID_MAX);
    long_id[RL_WAKE_ID_MAX] = '\0';
    rl_wake_cursor_set(c, "w2", 2, long_id);
    CHECK(rl_wake_cursor(c, "w2", 2) == NULL, "an id too long to keep: read from the start");
    rl_wake_cursor_set(c, "w\0", 2, "7-0");
    CHECK(rl_wake_cursor(c, "w", 1) == NULL && rl_wake_cursor(c, "w\0", 2) == NULL, "a waiter id with a NUL");
    rl_conn_free(c);
}

/* A WAKE_WAIT reads from its waiter's cursor; the fan-out's judging of its
 * reply (the family's judge, on the connection) moves the cursor on. */
UNIT_TEST(test_lock_state_wake_wait)
{
    rl_conn *c = unit_conn(NULL, NULL, 0);
    rl_lock_op wake
        = {.kind = RL_OP_WAKE_WAIT, .key = "lock:r", .key_len = 6, .waiter = "w1", .waiter_len = 2, .wait_ms = 10};
    rl_lock_op other = wake;
    redisReply *r = UNIT_REPLY(
        "*1\r\n*2\r\n$13\r\nlock:r\0B{mio}\r\n*1\r\n*2\r\n$3\r\n5-0\r\n*2\r\n$1\r\nw\r\n$2\r\nw1\r\n");
    char err[64];
    rl_result value;

    other.waiter = "w2";
    CHECK(rl_op_append(c, &wake, RL_FORM_FIRST, 1) == 0 && c->out_len > 8
              && memcmp(c->out + c->out_len - 9, "$3\r\n0-0\r\n", 9) == 0,
          "first read from the start");
    CHECK(rl_op_judge(&wake, r, &value, err, sizeof err) == RL_REPLY_YES && strcmp(value.text, "5-0") == 0
              && rl_wake_cursor(c, "w1", 2) == NULL,
          "judged alone: the id in the result, no cursor");
    CHECK(rl_lock_op_judge(&wake, c, r, &value, err, sizeof err) == RL_REPLY_YES && value.text[0] == '\0'
              && strcmp(rl_wake_cursor(c, "w1", 2), "5-0") == 0,
          "judged on the connection: the cursor moved");
    c->out_len = 0;
    CHECK(rl_op_append(c, &wake, RL_FORM_FIRST, 1) == 0 && memcmp(c->out + c->out_len - 9, "$3\r\n5-0\r\n", 9) == 0,
          "the next read starts after it");
    c->out_len = 0;
    CHECK(rl_op_append(c, &other, RL_FORM_FIRST, 1) == 0 && memcmp(c->out + c->out_len - 9, "$3\r\n0-0\r\n", 9) == 0,
          "another waiter reads from the start");
    freeReplyObject(r);
    r = UNIT_REPLY("*-1\r\n");
    CHECK(rl_lock_op_judge(&wake, c, r, &value, err, sizeof err) == RL_REPLY_NO
              && strcmp(rl_wake_cursor(c, "w1", 2), "5-0") == 0,
          "a timeout keeps the cursor");
    freeReplyObject(r);
    rl_conn_free(c);
}

/* A done wake's result ("v" of the entry naming the guard's waiter) is kept
 * on the connection for that waiter, handed over once; nothing is kept for
 * a waiter that is no guard's, from an entry naming others, or past
 * RL_ONCE_VALUE_MAX. */
UNIT_TEST(test_lock_state_wake_result)
{
    rl_conn *c = unit_conn(NULL, NULL, 0);
    rl_lock_op wake = {.kind = RL_OP_WAKE_WAIT,
                       .key = "lock:r",
                       .key_len = 6,
                       .waiter = "w1",
                       .waiter_len = 2,
                       .wait_ms = 10,
                       .guard = 1};
#define HEAD "*1\r\n*2\r\n$13\r\nlock:r\0B{mio}\r\n"
    redisReply *done = UNIT_REPLY(HEAD "*2\r\n*2\r\n$3\r\n5-0\r\n*4\r\n$1\r\nd\r\n$2\r\nw7\r\n$1\r\nv\r\n$3\r\nold\r\n"
                                       "*2\r\n$3\r\n6-0\r\n*4\r\n$1\r\nd\r\n$5\r\nw9,w1\r\n$1\r\nv\r\n$4\r\np\0g1\r\n");
    redisReply *bare = UNIT_REPLY(HEAD "*1\r\n*2\r\n$3\r\n7-0\r\n*2\r\n$1\r\nd\r\n$2\r\nw1\r\n");
    char err[64], *got = NULL, big[RL_ONCE_VALUE_MAX + 200];
    size_t len = 0;
    rl_result value;
    redisReply *over;
    int n;

    CHECK(rl_lock_op_judge(&wake, c, done, &value, err, sizeof err) == RL_REPLY_YES && value.value == RL_WAKE_DONE,
          "done");
    CHECK(rl_wake_result_take(c, "w9", 2, &got, &len) == 0, "not another waiter's");
    CHECK(rl_lock_op_judge(&wake, c, done, &value, err, sizeof err) == RL_REPLY_YES, "done again");
    CHECK(rl_wake_result_take(c, "w1", 2, &got, &len) == 1 && len == 4 && memcmp(got, "p\0g1", 4) == 0,
          "the result of the entry naming w1, not the one before it");
    free(got);
    CHECK(rl_wake_result_take(c, "w1", 2, &got, &len) == 0, "handed over once");
    CHECK(rl_lock_op_judge(&wake, c, bare, &value, err, sizeof err) == RL_REPLY_YES
              && rl_wake_result_take(c, "w1", 2, &got, &len) == 0,
          "a done wake without a result");
    wake.guard = 0;
    CHECK(rl_lock_op_judge(&wake, c, done, &value, err, sizeof err) == RL_REPLY_YES
              && rl_wake_result_take(c, "w1", 2, &got, &len) == 0,
          "no guard's waiter: nothing kept");
    wake.guard = 1;
    memcpy(big, HEAD, sizeof HEAD - 1);
    n = (int)(sizeof HEAD - 1);
    n += snprintf(big + n, sizeof big - n, "*1\r\n*2\r\n$3\r\n8-0\r\n*4\r\n$1\r\nd\r\n$2\r\nw1\r\n$1\r\nv\r\n$%d\r\n",
                  RL_ONCE_VALUE_MAX + 1);
    memset(big + n, 'x', RL_ONCE_VALUE_MAX + 1);
    memcpy(big + n + RL_ONCE_VALUE_MAX + 1, "\r\n", 2);
    over = unit_reply(big, n + RL_ONCE_VALUE_MAX + 3);
    CHECK(rl_lock_op_judge(&wake, c, over, &value, err, sizeof err) == RL_REPLY_YES
              && rl_wake_result_take(c, "w1", 2, &got, &len) == 0,
          "a result past RL_ONCE_VALUE_MAX: none");
#undef HEAD
    freeReplyObject(done);
    freeReplyObject(bare);
    freeReplyObject(over);
    rl_conn_free(c);
}
