/* One quorum attempt (src/lock/rl_acquire.c) on a scripted node set: the
 * fencing write-back, the undo of a lost attempt, the late-grant rule, no
 * quorum, and what it tells the caller. */
#include <string.h>
#include "unit.h"
#include "fake_nodes.h"
#include "../lock/rl_acquire.h"
#include "../lock/rl_lockops.h"

static fake_nodes f;

static const rl_lock_op lock_op
    = {.kind = RL_OP_LOCK, .key = "k", .key_len = 1, .token = "tok", .token_len = 3, .ttl_ms = 10000};

#define R(v, ...)                            \
    {                                        \
        .votes = v, .value = { __VA_ARGS__ } \
    }

/* Runs one attempt with the script; returns its outcome (a is freed). */
static rl_outcome attempt(size_t n, int fencing, const fake_reply *script, size_t nscript, int ours_before, int first,
                          rl_attempt *a)
{
    rl_outcome outcome;
    fake_nodes_init(&f, n, script, nscript);
    f.ns.fencing = fencing;
    CHECK(rl_attempt_run(&f.ns, &lock_op, ours_before, first, a) == 0, "attempt failed");
    outcome = a->outcome;
    CHECK(f.next == nscript, "%zu of %zu replies used", f.next, nscript);
    rl_attempt_free(a);
    return outcome;
}

UNIT_TEST(test_attempt_won)
{
    static const fake_reply s[] = {R("yyn")};
    rl_attempt a;
    CHECK(attempt(3, 0, s, 1, 0, 1, &a) == RL_WON, "won");
    CHECK(f.ncalls == 1 && !f.calls[0].fanout && f.calls[0].early && f.calls[0].need == 2, "one early run, need 2");
    CHECK(a.fence == 0 && !a.late && !a.contended, "no fence, not late, not contended");
    CHECK(a.until_us == 1000000 + (10000 - 102) * 1000, "validity less drift: %lld", (long long)a.until_us);
}

/* Asked only of the granting nodes below the number, and only when fewer
 * than a quorum have it. */
UNIT_TEST(test_fence_write_back)
{
    static const fake_reply low[] = {R("yyn", 5, 3, 0), R("y")};
    static const fake_reply enough[] = {R("yyn", 5, 5, 0)};
    static const fake_reply one[] = {R("y", 4)};
    char nodes[16];
    rl_attempt a;

    CHECK(attempt(3, 1, low, 2, 0, 1, &a) == RL_WON && a.fence == 5, "won with fence %lld", a.fence);
    CHECK(f.ncalls == 2 && f.calls[1].fanout && f.calls[1].op.kind == RL_OP_FENCE_RAISE && f.calls[1].op.fence == 5
              && strcmp(fake_call_nodes(&f.calls[1], nodes), "1") == 0 && f.calls[1].need == 1 && f.calls[1].early,
          "raised on node 1 (node 2 said no), need 1: %s", nodes);

    CHECK(attempt(3, 1, enough, 1, 0, 1, &a) == RL_WON && a.fence == 5, "a quorum has it");
    CHECK(f.ncalls == 1, "no write-back when a quorum has the number");

    CHECK(attempt(1, 1, one, 1, 0, 1, &a) == RL_WON && a.fence == 4 && f.ncalls == 1, "one node: no write-back");

    CHECK(attempt(3, 0, enough, 1, 0, 1, &a) == RL_WON && a.fence == 0, "no fencing: no number");
}

/* Only a caller that holds the lock already (re-entrant) asks the nodes to
 * keep its number: a token found on a node otherwise counts anew, as it may
 * be one that a release never reached (the command: unit.c's test_lockops). */
UNIT_TEST(test_fence_kept_only_when_held)
{
    static const fake_reply s[] = {R("yyy", 5, 5, 5)};
    rl_attempt a;

    CHECK(attempt(3, 1, s, 1, 1, 1, &a) == RL_WON && f.calls[0].op.held, "held: kept");
    CHECK(attempt(3, 1, s, 1, 0, 1, &a) == RL_WON && !f.calls[0].op.held, "not held: counted anew");
}

/* A write-back that a quorum does not take: lost, undone where the lock
 * went out (not where it was ours before), told by the write-back's votes. */
UNIT_TEST(test_fence_write_back_lost)
{
    static const fake_reply s[] = {R("yyn", 5, 3, 0), R("f"), R("yy")};
    char nodes[16];
    rl_attempt a;

    CHECK(attempt(3, 1, s, 3, 0, 1, &a) == RL_LOST, "lost");
    CHECK(f.ncalls == 3 && f.calls[2].fanout && f.calls[2].op.kind == RL_OP_UNLOCK
              && strcmp(f.calls[2].token, "tok") == 0 && strcmp(fake_call_nodes(&f.calls[2], nodes), "01") == 0
              && !f.calls[2].early,
          "undone on nodes 0 and 1: %s", nodes);
    CHECK(a.tally.count.yes == 1 && a.tally.count.failed == 1, "the write-back's votes: %zu yes", a.tally.count.yes);
    CHECK(a.contended, "a lost first attempt is contended");

    CHECK(attempt(3, 1, s, 2, 1, 1, &a) == RL_LOST && f.ncalls == 2, "ours before: not undone");
}

/* Test 601's duplicate: a node that did not grant the acquisition may be
 * held by a concurrent attempt that counted there first; raising it (its
 * counter at the number already) proved nothing, and that attempt's later
 * grant on a granting node left below the number gave it the same number.
 * So only granting nodes count: here the one below cannot be raised, and
 * the acquisition is lost although the nodes that said no had the number. */
UNIT_TEST(test_fence_write_back_granting_nodes_only)
{
    static const fake_reply s[] = {R("nnyyy", 0, 0, 135, 134, 135), R("f"), R("yyy")};
    char nodes[16];
    rl_attempt a;

    CHECK(attempt(5, 1, s, 3, 0, 1, &a) == RL_LOST, "lost");
    CHECK(f.calls[1].op.kind == RL_OP_FENCE_RAISE && strcmp(fake_call_nodes(&f.calls[1], nodes), "3") == 0
              && f.calls[1].need == 1,
          "raised on node 3 only: %s", nodes);
}

UNIT_TEST(test_lost_attempt_undone)
{
    static const fake_reply some[] = {R("ynf"), R("yy")};
    static const fake_reply unsent[] = {R("ync"), R("y")};
    static const fake_reply none[] = {R("nnn", 300, 200, 400)};
    char nodes[16];
    rl_attempt a;

    CHECK(attempt(3, 0, some, 2, 0, 0, &a) == RL_LOST && !a.contended, "lost, not the first attempt");
    CHECK(f.ncalls == 2 && f.calls[1].fanout && f.calls[1].op.kind == RL_OP_UNLOCK
              && strcmp(fake_call_nodes(&f.calls[1], nodes), "02") == 0,
          "undone where it went out: %s", nodes);

    CHECK(attempt(3, 0, unsent, 2, 0, 1, &a) == RL_LOST && strcmp(fake_call_nodes(&f.calls[1], nodes), "0") == 0,
          "not where nothing was sent: %s", nodes);

    CHECK(attempt(3, 0, some, 1, 1, 1, &a) == RL_LOST && f.ncalls == 1, "the token ours before: not undone");

    CHECK(attempt(3, 0, none, 1, 0, 1, &a) == RL_LOST && f.ncalls == 1, "every node said no: nothing to undo");
    CHECK(a.contended && a.pttl == 200, "contended, the shortest PTTL: %lld", a.pttl);
}

/* RedisLock: a fresh grant whose reply came after its TTL is taken back;
 * the same late reply for a token held before is kept. */
UNIT_TEST(test_late_grant_taken_back)
{
    static const fake_reply late[] = {{.votes = "y", .advance_us = 10001000}, R("y")};
    static const fake_reply redlock[] = {{.votes = "yyy", .advance_us = 10000000}, R("yyy")};
    rl_attempt a;

    CHECK(attempt(1, 0, late, 2, 0, 1, &a) == RL_LOST, "lost");
    CHECK(a.late && !a.contended && a.pttl == RL_PTTL_TAKEN_BACK, "late, taken back, not contended");
    CHECK(f.ncalls == 2 && f.calls[1].op.kind == RL_OP_UNLOCK && f.calls[1].fanout, "taken back");

    CHECK(attempt(1, 0, late, 1, 1, 1, &a) == RL_WON && !a.late && f.ncalls == 1, "ours before: kept");

    CHECK(attempt(3, 0, redlock, 2, 0, 1, &a) == RL_LOST && a.late, "RedLock: no validity left, late");
    CHECK(attempt(3, 0, redlock, 1, 1, 1, &a) == RL_LOST && !a.late && f.ncalls == 1,
          "RedLock, ours before: lost without validity, not undone");
}

UNIT_TEST(test_attempt_no_quorum)
{
    static const fake_reply failed[] = {R("yff"), R("yyy")};
    static const fake_reply unreachable[] = {R("ycc"), R("y")};
    static const fake_reply spared[] = {R("ycy")};
    char nodes[16];
    rl_attempt a;

    CHECK(attempt(3, 0, failed, 2, 0, 1, &a) == RL_NO_QUORUM && !a.contended, "two of three failed");
    CHECK(strcmp(fake_call_nodes(&f.calls[1], nodes), "012") == 0, "undone where it went out: %s", nodes);
    CHECK(attempt(3, 0, unreachable, 2, 0, 1, &a) == RL_NO_QUORUM
              && strcmp(fake_call_nodes(&f.calls[1], nodes), "0") == 0,
          "undone where sent: %s", nodes);
    CHECK(attempt(3, 0, spared, 1, 0, 1, &a) == RL_WON, "one failure is spared");
}

/* A guard's waiter looking again: its work is done when a quorum of nodes
 * says DONE, not one (a node the holder never reached is free and answers
 * DONE while the rebuild runs on). One node: its DONE is the quorum. */
UNIT_TEST(test_attempt_guard_done_by_quorum)
{
    static const fake_reply one_of_three[] = {R("nnn", RL_PTTL_DONE, 5000, 5000)};
    static const fake_reply two_of_three[] = {R("nnn", RL_PTTL_DONE, 5000, RL_PTTL_DONE)};
    static const fake_reply alone[] = {R("n", RL_PTTL_DONE)};
    rl_lock_op guard = lock_op;
    rl_attempt a;

    guard.kind = RL_OP_LOCK_WAIT;
    guard.guard = 1;
    fake_nodes_init(&f, 3, one_of_three, 1);
    CHECK(rl_attempt_run(&f.ns, &guard, 0, 0, &a) == 0 && a.outcome == RL_LOST && !a.done,
          "one DONE of three: not done");
    rl_attempt_free(&a);
    fake_nodes_init(&f, 3, two_of_three, 1);
    CHECK(rl_attempt_run(&f.ns, &guard, 0, 0, &a) == 0 && a.done, "two DONE of three: done");
    rl_attempt_free(&a);
    fake_nodes_init(&f, 1, alone, 1);
    CHECK(rl_attempt_run(&f.ns, &guard, 0, 0, &a) == 0 && a.done, "one node's DONE: done");
    rl_attempt_free(&a);
}
