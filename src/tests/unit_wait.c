/* The wait loop (src/lock/rl_wait.c) on a scripted node set and a fake
 * clock: when it looks again (the holder's PTTL + 1 ms, at most
 * RECHECK_MAX_US, NEXT_IN_LINE_US after a next-in-line wake, the
 * deadline), when it queues again, and that it leaves the queue only when
 * it queued. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "fake_nodes.h"
#include "../lock/rl_wait.h"
#include "../lock/rl_lockops.h"
#include "../base/rl_status.h"

static fake_nodes f;

#define T0 1000000 /* the fake clock's start */

/* What the hooks saw: each attempt's outcome and lateness. */
static struct {
    int outcomes[FAKE_MAX_CALLS], late[FAKE_MAX_CALLS];
    size_t n;
    int stop_after; /* > 0: the hook stops the wait at that attempt */
} seen;

static int ours_before(void *ctx, const rl_lock_op *op)
{
    (void)ctx;
    (void)op;
    return 0;
}

static int attempted(void *ctx, const rl_lock_op *op, const rl_attempt *a)
{
    (void)ctx;
    (void)op;
    seen.outcomes[seen.n] = a->outcome;
    seen.late[seen.n++] = a->late;
    if (seen.stop_after > 0 && (int)seen.n == seen.stop_after) {
        return -1;
    }
    return a->outcome == RL_WON;
}

static const rl_wait_hooks hooks = {ours_before, attempted, NULL};

/* Waits with the script until deadline (µs after T0); returns what
 * rl_wait_run() returned. */
static int wait_with(size_t n, const rl_lock_op *like, int64_t deadline, int promoting, const fake_reply *script,
                     size_t nscript)
{
    int status = -1, r;
    memset(&seen, 0, sizeof seen);
    fake_nodes_init(&f, n, script, nscript);
    r = rl_wait_run(&f.ns, like, T0 + deadline, promoting, &hooks, &status);
    CHECK(status == 0, "status %d", status);
    CHECK(f.next == nscript, "%zu of %zu replies used", f.next, nscript);
    return r;
}

static const rl_lock_op like = {.kind = RL_OP_LOCK_WAIT, .key = "k", .key_len = 1, .ttl_ms = 10000};

#define R(v, ...)                            \
    {                                        \
        .votes = v, .value = { __VA_ARGS__ } \
    }
#define BLOCK(v)               \
    {                          \
        .votes = v, .block = 1 \
    }

static int kinds_are(const int *kinds, size_t n)
{
    size_t i;
    if (f.ncalls != n) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if ((int)f.calls[i].op.kind != kinds[i]) {
            return 0;
        }
    }
    return 1;
}

#define LW RL_OP_LOCK_WAIT
#define WW RL_OP_WAKE_WAIT
#define LV RL_OP_LEAVE

/* The holder's lock ends in 500 ms: looked at again 1 ms after. */
UNIT_TEST(test_wait_recheck_at_pttl)
{
    static const fake_reply s[] = {R("n", 500), BLOCK("n"), R("y"), R("n")};
    static const int kinds[] = {LW, WW, LW, LV};
    char nodes[16];

    CHECK(wait_with(1, &like, 60000000, 0, s, 4) == 1, "won");
    CHECK(kinds_are(kinds, 4), "lock, wake wait, lock, leave");
    CHECK(f.calls[0].op.enqueue && f.calls[0].op.wait_ms == 60000, "queued, waiting 60 s: %lld", f.calls[0].op.wait_ms);
    CHECK(f.calls[1].timeouts.stop_at_us == T0 + 501000 && f.calls[1].op.wait_ms == 501 && f.calls[1].fanout
              && strcmp(fake_call_nodes(&f.calls[1], nodes), "a") == 0,
          "blocked until PTTL + 1 ms on the wait connection");
    CHECK(f.calls[1].timeouts.reply_us == 100000 + 501000, "the reply may take the block's time");
    CHECK(f.calls[2].at_us == T0 + 501000 && !f.calls[2].op.enqueue, "looked again at the end, still queued");
    CHECK(strcmp(f.calls[2].waiter, f.calls[0].waiter) == 0 && strcmp(f.calls[2].token, f.calls[0].token) != 0
              && strlen(f.calls[0].token) == 32,
          "one waiter id, a fresh token per attempt");
    CHECK(strcmp(f.calls[3].waiter, f.calls[0].waiter) == 0 && f.calls[3].need == 0 && !f.calls[3].fanout,
          "left the queue on every node");
}

/* A long hold: looked at again after RECHECK_MAX_US, at most; a promotion
 * after PROMOTE_RECHECK_US, with the owner's token each time. */
UNIT_TEST(test_wait_recheck_max)
{
    static const fake_reply s[] = {R("nnn", 60000, 60000, -1), BLOCK("nnn"), R("yyy"), R("nnn")};
    rl_lock_op owner = like;
    char nodes[16];

    CHECK(wait_with(3, &like, 60000000, 0, s, 4) == 1, "won");
    CHECK(f.calls[1].timeouts.stop_at_us == T0 + RECHECK_MAX_US && f.calls[1].need == 1 && f.calls[1].early
              && strcmp(fake_call_nodes(&f.calls[1], nodes), "abc") == 0,
          "at most 2 s, on every wait connection");

    owner.token = "owner";
    owner.token_len = 5;
    owner.promote = 1;
    CHECK(wait_with(3, &owner, 60000000, 1, s, 4) == 1, "promoted");
    CHECK(f.calls[1].timeouts.stop_at_us == T0 + PROMOTE_RECHECK_US, "a promotion looks every 200 ms");
    CHECK(strcmp(f.calls[0].token, "owner") == 0 && strcmp(f.calls[2].token, "owner") == 0 && f.calls[2].op.promote,
          "the owner's token each time");
}

/* Named next in line: looked at again NEXT_IN_LINE_US after the wake. */
UNIT_TEST(test_wait_next_in_line)
{
    static const fake_reply s[]
        = {R("n", 5000), {.votes = "n", .value = {RL_WAKE_NEXT}, .advance_us = 10000}, BLOCK("n"), R("y"), R("n")};
    static const int kinds[] = {LW, WW, WW, LW, LV};

    CHECK(wait_with(1, &like, 60000000, 0, s, 5) == 1, "won");
    CHECK(kinds_are(kinds, 5), "a wake of another waiter read, and blocked on again");
    CHECK(f.calls[2].timeouts.stop_at_us == T0 + 10000 + NEXT_IN_LINE_US, "next in line: 250 ms after the wake, %lld",
          (long long)(f.calls[2].timeouts.stop_at_us - T0));
    CHECK(f.calls[3].at_us == T0 + 10000 + NEXT_IN_LINE_US, "looked again then");
}

/* Woken by a release: queued again; the deadline ends the wait; the queue
 * is left. */
UNIT_TEST(test_wait_woken_then_deadline)
{
    static const fake_reply s[] = {R("n", 5000), {.votes = "y", .advance_us = 1000}, R("n", -1), BLOCK("n"), R("n")};
    static const int kinds[] = {LW, WW, LW, WW, LV};

    CHECK(wait_with(1, &like, 1000000, 0, s, 5) == 0, "not in time");
    CHECK(kinds_are(kinds, 5), "lock, woken, lock, wait, leave");
    CHECK(f.calls[1].timeouts.stop_at_us == T0 + 1000000, "the deadline comes before the recheck");
    CHECK(f.calls[2].op.enqueue && f.calls[2].at_us == T0 + 1000, "woken: queued again at once");
    CHECK(f.calls[2].op.wait_ms == 999, "waiting what is left: %lld", f.calls[2].op.wait_ms);
    CHECK(f.calls[3].timeouts.stop_at_us == T0 + 1000000, "no PTTL: up to the deadline");
}

/* A late grant taken back: queued again and looked at at once. */
UNIT_TEST(test_wait_late_grant_requeued)
{
    static const fake_reply s[] = {{.votes = "y", .advance_us = 10001000}, R("y"), BLOCK("n"), R("y"), R("n")};
    static const int kinds[] = {LW, RL_OP_UNLOCK, WW, LW, LV};

    CHECK(wait_with(1, &like, 60000000, 0, s, 5) == 1, "won");
    CHECK(kinds_are(kinds, 5), "lock, taken back, wait, lock, leave");
    CHECK(seen.n == 2 && seen.late[0] && seen.outcomes[0] == RL_LOST, "the first attempt late");
    CHECK(f.calls[2].timeouts.stop_at_us == T0 + 10001000 + 1000, "looked at again 1 ms on");
    CHECK(f.calls[3].op.enqueue, "queued again");
}

/* The queue is left only when the waiter queued. */
UNIT_TEST(test_wait_leaves_only_when_queued)
{
    static const fake_reply won[] = {R("y"), R("n")};
    static const fake_reply stop[] = {R("n", 100), R("n")};

    CHECK(wait_with(1, &like, 0, 0, NULL, 0) == 0 && f.ncalls == 0, "deadline passed: never queued, nothing sent");
    CHECK(wait_with(1, &like, 60000000, 0, won, 2) == 1 && f.ncalls == 2 && f.calls[1].op.kind == LV,
          "won at once: the queueing attempt may have queued us on a node that said no");
    memset(&seen, 0, sizeof seen);
    seen.stop_after = 1;
    fake_nodes_init(&f, 1, stop, 2);
    {
        int status = -1;
        CHECK(rl_wait_run(&f.ns, &like, T0 + 60000000, 0, &hooks, &status) == -1 && status == 0, "the hook stops it");
    }
    CHECK(f.ncalls == 2 && f.calls[1].op.kind == LV, "and the queue is left");
}

/* A node that cannot block (an error reply): counted and told to the hook
 * (once per node and wait), and looked at again at once (routed anew); a
 * second failure in a row sleeps until the recheck. */
static size_t wake_failures;
static int count_wake_failure(void *ctx, const char *key, size_t key_len, const rl_vote *v)
{
    (void)ctx;
    wake_failures += key_len == 1 && key[0] == 'k' && v->err.code == RL_E_REPLY;
    return 0;
}

UNIT_TEST(test_wait_node_cannot_block)
{
    static const fake_reply s[] = {R("n", 300), R("e"), R("n", 300), R("e"), R("y"), R("n")};
    static const rl_wait_hooks told = {ours_before, attempted, NULL, NULL, count_wake_failure, NULL};
    rl_lock_op shared = like;
    rl_wait_counts before, after;
    int status = -1;

    shared.mode = RL_MODE_SHARED;
    memset(&seen, 0, sizeof seen);
    wake_failures = 0;
    rl_wait_counts_get(&before);
    fake_nodes_init(&f, 1, s, 6);
    CHECK(rl_wait_run(&f.ns, &shared, T0 + 60000000, 0, &told, &status) == 1 && status == 0, "won");
    rl_wait_counts_get(&after);
    CHECK(f.calls[1].fanout && f.calls[1].node[0] == 100 && f.calls[1].op.kind == RL_OP_WAKE_WAIT,
          "the wake wait went to the wait connection");
    CHECK(f.calls[2].at_us == T0, "the first failure: looked at again at once");
    CHECK(f.nsleeps == 1 && f.slept_until[0] == T0 + 301000, "the second in a row: slept until the recheck");
    CHECK(f.calls[4].at_us == T0 + 301000, "looked at again then");
    CHECK(wake_failures == 1 && after.wake_errors - before.wake_errors == 1,
          "the node's failure told and counted once");
    CHECK(after.woken == before.woken && after.rechecked == before.rechecked, "neither woken nor rechecked");
    CHECK(f.calls[0].waiter[0] == 's', "a shared waiter's id starts with s");
}

/* On two nodes, one failing at once while the other blocks until the
 * recheck (its read skipped at the stop time): a recheck, not a failure
 * of every node; the failing node counted once over the wait's reads. */
UNIT_TEST(test_wait_one_node_fails_other_blocks)
{
    static const fake_reply s[] = {R("nn", 300, 300), BLOCK("es"), R("nn", 300, 300), BLOCK("es"), R("yy"), R("nn")};
    static const rl_wait_hooks told = {ours_before, attempted, NULL, NULL, count_wake_failure, NULL};
    rl_wait_counts before, after;
    int status = -1;

    memset(&seen, 0, sizeof seen);
    wake_failures = 0;
    rl_wait_counts_get(&before);
    fake_nodes_init(&f, 2, s, 6);
    CHECK(rl_wait_run(&f.ns, &like, T0 + 60000000, 0, &told, &status) == 1 && status == 0, "won");
    rl_wait_counts_get(&after);
    CHECK(f.nsleeps == 0, "no sleep: the recheck came while blocked");
    CHECK(after.rechecked - before.rechecked == 2 && after.wake_errors - before.wake_errors == 1 && wake_failures == 1,
          "two rechecks, the failing node counted and told once");
}

/* A wake wait that ends by a wake counts as woken; one that runs to its
 * recheck as rechecked. */
UNIT_TEST(test_wait_counts_woken_and_rechecked)
{
    static const fake_reply s[] = {R("n", 300), BLOCK("n"), R("n", 300), R("y"), R("y"), R("n")};
    rl_wait_counts before, after;
    rl_wait_counts_get(&before);
    CHECK(wait_with(1, &like, 60000000, 0, s, 6) == 1, "won");
    rl_wait_counts_get(&after);
    CHECK(after.rechecked - before.rechecked == 1 && after.woken - before.woken == 1
              && after.wake_errors == before.wake_errors,
          "one rechecked, one woken, no error");
}

/* A guard's waiter woken as done: the wait ends without the lock (2), and
 * on one node nothing is left to leave (the release emptied the queue); on
 * several, the nodes the release may have missed are left. Any other
 * waiter woken so looks again, like after a plain wake. */
UNIT_TEST(test_wait_woken_as_done)
{
    static const fake_reply one[] = {R("n", 5000), {.votes = "y", .value = {RL_WAKE_DONE}}};
    static const fake_reply three[] = {R("nnn", 5000, 5000, 5000), {.votes = "ynn", .value = {RL_WAKE_DONE}}, R("nnn")};
    static const fake_reply plain[] = {R("n", 5000), {.votes = "y", .value = {0}}, R("y"), R("n")};
    static const int kinds_one[] = {LW, WW}, kinds_three[] = {LW, WW, LV}, kinds_plain[] = {LW, WW, LW, LV};
    rl_lock_op guard = like;

    guard.guard = 1;
    CHECK(wait_with(1, &guard, 60000000, 0, one, 2) == 2, "done");
    CHECK(kinds_are(kinds_one, 2) && f.calls[1].op.guard, "lock, wake wait as a guard; no leave");
    CHECK(wait_with(3, &guard, 60000000, 0, three, 3) == 2 && kinds_are(kinds_three, 3), "done, left on three nodes");
    CHECK(wait_with(1, &like, 60000000, 0, plain, 4) == 1 && kinds_are(kinds_plain, 4) && !f.calls[1].op.guard,
          "not a guard: woken, it takes the lock");
}

/* A guard's waiter whose look (after its XREAD timed out) comes after a
 * done release it has not read: the node says +DONE; the wait ends as done,
 * with nothing to leave on one node. */
UNIT_TEST(test_wait_done_seen_by_a_look)
{
    static const fake_reply one[] = {R("n", 500), BLOCK("n"), R("n", RL_PTTL_DONE)};
    static const int kinds[] = {LW, WW, LW};
    rl_lock_op guard = like;

    guard.guard = 1;
    CHECK(wait_with(1, &guard, 60000000, 0, one, 3) == 2, "done");
    CHECK(kinds_are(kinds, 3) && !f.calls[2].op.enqueue && f.calls[2].op.guard,
          "lock, wait, a look (not queueing); no leave");
}

static void no_result(void *ctx, char *value, size_t len)
{
    (void)ctx;
    (void)len;
    free(value);
}

/* The same, for a caller that wants the holder's result: the done entry is
 * in its wake stream already, so it reads it, for 5 ms at most (the
 * result, when the entry has one, goes to the hook). */
UNIT_TEST(test_wait_done_seen_by_a_look_reads_its_result)
{
    static const fake_reply one[]
        = {R("n", 500), BLOCK("n"), R("n", RL_PTTL_DONE), {.votes = "y", .value = {RL_WAKE_DONE}}};
    static const int kinds[] = {LW, WW, LW, WW};
    static const rl_wait_hooks with_result = {ours_before, attempted, NULL, no_result};
    rl_lock_op guard = like;
    int status = -1;

    guard.guard = 1;
    memset(&seen, 0, sizeof seen);
    fake_nodes_init(&f, 1, one, 4);
    CHECK(rl_wait_run(&f.ns, &guard, T0 + 60000000, 0, &with_result, &status) == 2 && status == 0, "done");
    CHECK(kinds_are(kinds, 4), "lock, wait, a look, then its stream read");
    CHECK(f.calls[3].timeouts.stop_at_us == f.calls[3].at_us + 5000 && f.calls[3].op.wait_ms <= 5,
          "read for 5 ms at most: stop at +%lld us, block %lld ms",
          (long long)(f.calls[3].timeouts.stop_at_us - f.calls[3].at_us), f.calls[3].op.wait_ms);
}
