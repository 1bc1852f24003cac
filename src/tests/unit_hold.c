/* Extend, holds and release (src/lock/rl_hold.c) on a scripted node set:
 * the shared form asked again when a node says so, an unacknowledged
 * extend released, a release on the lock key alone, no quorum. */
#include <string.h>
#include "unit.h"
#include "../lock/rl_native.h"
#include "fake_nodes.h"
#include "../lock/rl_hold.h"

static fake_nodes f;

#define R(v, ...)                            \
    {                                        \
        .votes = v, .value = { __VA_ARGS__ } \
    }

static const rl_lock_op extend_op
    = {.kind = RL_OP_EXTEND, .key = "k", .key_len = 1, .token = "tok", .token_len = 3, .ttl_ms = 10000};

typedef int (*hold_fn)(const rl_lock_nodes *, const rl_lock_op *, rl_verdict *);

/* Runs fn with the script; v is freed, its fields kept. */
static rl_outcome run(hold_fn fn, size_t n, const rl_lock_op *op, const fake_reply *script, size_t nscript,
                      rl_verdict *v)
{
    fake_nodes_init(&f, n, script, nscript);
    CHECK(fn(&f.ns, op, v) == 0, "failed");
    CHECK(f.next == nscript, "%zu of %zu replies used", f.next, nscript);
    rl_verdict_free(v);
    return v->outcome;
}

UNIT_TEST(test_extend_retried_shared)
{
    static const fake_reply s[] = {R("nnn", -1, -1, 0), R("yyy")};
    static const fake_reply held_shared[] = {R("nnn", -1, -1, -1)};
    rl_lock_op shared = extend_op;
    rl_verdict v;

    CHECK(run(rl_extend_run, 3, &extend_op, s, 2, &v) == RL_WON, "won in the shared form");
    CHECK(f.ncalls == 2 && f.calls[0].op.mode == RL_MODE_EXCLUSIVE && f.calls[1].op.mode == RL_MODE_SHARED
              && !f.calls[1].early && !f.calls[1].fanout,
          "asked again, shared, of every node");
    CHECK(v.until_us == 1000000 + (10000 - 102) * 1000 && !v.unacknowledged, "validity less drift");

    shared.mode = RL_MODE_SHARED;
    CHECK(run(rl_extend_run, 3, &shared, held_shared, 1, &v) == RL_LOST && f.ncalls == 1,
          "sent shared already: not again");
}

UNIT_TEST(test_extend_unacknowledged_released)
{
    static const fake_reply lost[] = {R("ynr"), R("y")};
    static const fake_reply alone[] = {R("r"), R("y")};
    static const fake_reply won[] = {R("yyr")};
    static const fake_reply no[] = {R("ynn")};
    char nodes[16];
    rl_verdict v;

    CHECK(run(rl_extend_run, 3, &extend_op, lost, 2, &v) == RL_LOST && v.unacknowledged, "released");
    CHECK(f.calls[1].fanout && f.calls[1].op.kind == RL_OP_UNLOCK && strcmp(f.calls[1].token, "tok") == 0
              && strcmp(fake_call_nodes(&f.calls[1], nodes), "2") == 0 && !f.calls[1].early,
          "where too few replicas acknowledged: %s", nodes);
    CHECK(run(rl_extend_run, 1, &extend_op, alone, 2, &v) == RL_NO_QUORUM && v.unacknowledged, "one node: released");
    CHECK(run(rl_extend_run, 3, &extend_op, won, 1, &v) == RL_WON && !v.unacknowledged, "won: kept");
    CHECK(run(rl_extend_run, 3, &extend_op, no, 1, &v) == RL_LOST && !v.unacknowledged, "nothing to release");
}

UNIT_TEST(test_holds_retried_shared)
{
    static const fake_reply s[] = {R("nyn", 0, 0, -1), R("yyn")};
    rl_lock_op holds = extend_op;
    rl_verdict v;

    holds.kind = RL_OP_HOLDS;
    CHECK(run(rl_holds_run, 3, &holds, s, 2, &v) == RL_WON, "held, in the shared form");
    CHECK(f.calls[0].early && f.calls[1].early && f.calls[1].op.mode == RL_MODE_SHARED,
          "early, shared the second time");
}

UNIT_TEST(test_release_verdicts)
{
    static const fake_reply one_key[] = {R("yky")};
    static const fake_reply plain[] = {R("yyn")};
    static const fake_reply failed[] = {R("yff")};
    rl_lock_op release = extend_op;
    rl_verdict v;

    release.kind = RL_OP_UNLOCK;
    release.ttl_ms = 0;
    CHECK(run(rl_release_run, 3, &release, one_key, 1, &v) == RL_WON && v.one_key, "released, one key alone");
    CHECK(!f.calls[0].early && !f.calls[0].fanout, "every node waited for");
    CHECK(run(rl_release_run, 3, &release, plain, 1, &v) == RL_WON && !v.one_key, "released");
    CHECK(run(rl_release_run, 3, &release, failed, 1, &v) == RL_NO_QUORUM, "no quorum");
    CHECK(v.tally.count.failed == 2, "the votes kept for the report");
}

/* A native release that found waiters queued on a node (its vote's value
 * RL_RELEASE_WAKE_OWED) owes them the wake: sent there alone, by fanout,
 * after every node answered; a plain release elsewhere owes nothing. */
UNIT_TEST(test_release_native_wake_owed)
{
    static const fake_reply queued[] = {{"yyn", {1, RL_RELEASE_WAKE_OWED, 0}}, R("y")};
    static const fake_reply none[] = {{"yyy", {1, 1, 1}}};
    rl_lock_op release = extend_op;
    rl_verdict v;
    char nodes[64];

    release.kind = RL_OP_UNLOCK;
    release.ttl_ms = 0;
    release.plain = 1;
    CHECK(run(rl_release_run, 3, &release, queued, 2, &v) == RL_WON, "released");
    CHECK(f.ncalls == 2 && f.calls[1].fanout && f.calls[1].op.kind == RL_OP_WAKE && f.calls[1].n == 1
              && strcmp(fake_call_nodes(&f.calls[1], nodes), "1") == 0 && strcmp(f.calls[1].token, "tok") == 0,
          "the wake, on node 1 alone: %zu calls, %s", f.ncalls, fake_call_nodes(&f.calls[1], nodes));
    CHECK(run(rl_release_run, 3, &release, none, 1, &v) == RL_WON && f.ncalls == 1, "nobody queued: no wake");
    release.plain = 0;
    CHECK(run(rl_release_run, 3, &release, queued, 1, &v) == RL_WON && f.ncalls == 1,
          "not a native release: its value owes nothing");
}
