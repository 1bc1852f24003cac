/* What the lock layer keeps per connection (rl_lock_state.h): the deferred
 * undos' bounds and order, and the wake cursor of one waiter at a time,
 * which a WAKE_WAIT reads from and its judged reply moves on. */
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
    char key[16];
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
        snprintf(key, sizeof key, "$7\r\nlock:k%d\r\n", i);
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
          && rl_wake_cursor(c, "w10", 3) == NULL, "no other waiter's");
    rl_undo_defer(c, "lock:a", 6, "tok", 3);
    rl_wake_cursor_set(c, "w2", 2, "6-1");
    CHECK(rl_wake_cursor(c, "w1", 2) == NULL && strcmp(rl_wake_cursor(c, "w2", 2), "6-1") == 0
          && rl_undos_pending(c) == 1, "one waiter's at a time, beside the undos");
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
    rl_op wake = {.kind = RL_OP_WAKE_WAIT, .key = "lock:r", .key_len = 6, .waiter = "w1", .waiter_len = 2, .wait_ms = 10};
    rl_op other = wake;
    redisReply *r = UNIT_REPLY("*1\r\n*2\r\n$13\r\nlock:r\0B{mio}\r\n*1\r\n*2\r\n$3\r\n5-0\r\n*2\r\n$1\r\nw\r\n$2\r\nw1\r\n");
    char err[64];
    long long value;

    other.waiter = "w2";
    CHECK(rl_op_append(c, &wake, RL_FORM_FIRST, 1) == 0 && c->out_len > 8
          && memcmp(c->out + c->out_len - 9, "$3\r\n0-0\r\n", 9) == 0, "first read from the start");
    CHECK(rl_op_judge(&wake, r, &value, err, sizeof err) == RL_REPLY_YES && strcmp(err, "5-0") == 0
          && rl_wake_cursor(c, "w1", 2) == NULL, "judged alone: the id in err, no cursor");
    CHECK(rl_op_family_of(wake.kind)->judge(&wake, c, r, &value, err, sizeof err) == RL_REPLY_YES && err[0] == '\0'
          && strcmp(rl_wake_cursor(c, "w1", 2), "5-0") == 0, "judged on the connection: the cursor moved");
    c->out_len = 0;
    CHECK(rl_op_append(c, &wake, RL_FORM_FIRST, 1) == 0 && memcmp(c->out + c->out_len - 9, "$3\r\n5-0\r\n", 9) == 0,
          "the next read starts after it");
    c->out_len = 0;
    CHECK(rl_op_append(c, &other, RL_FORM_FIRST, 1) == 0 && memcmp(c->out + c->out_len - 9, "$3\r\n0-0\r\n", 9) == 0,
          "another waiter reads from the start");
    freeReplyObject(r);
    r = UNIT_REPLY("*-1\r\n");
    CHECK(rl_op_family_of(wake.kind)->judge(&wake, c, r, &value, err, sizeof err) == RL_REPLY_NO
          && strcmp(rl_wake_cursor(c, "w1", 2), "5-0") == 0, "a timeout keeps the cursor");
    freeReplyObject(r);
    rl_conn_free(c);
}
