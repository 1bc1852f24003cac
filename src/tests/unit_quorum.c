/* The quorum arithmetic: every vote pattern of five nodes, failures,
 * skipped nodes, undo choice, validity with drift, PTTL. */
#include <string.h>
#include "unit.h"
#include "../lock/rl_quorum.h"
#include "../base/rl_status.h"

/* votes from a pattern: 'y' yes, 'n' no, 'f' failed (timed out after
 * the command went out), 'c' failed to connect (nothing sent), 's' skipped
 * (sent, not waited for) */
static size_t votes_of(const char *pattern, rl_vote *votes)
{
    size_t i, n = strlen(pattern);
    memset(votes, 0, n * sizeof *votes);
    for (i = 0; i < n; i++) {
        rl_vote *v = &votes[i];
        switch (pattern[i]) {
        case 'y':
            v->err.code = RL_OK;
            v->yes = 1;
            v->sent = 1;
            break;
        case 'n':
            v->err.code = RL_OK;
            v->yes = 0;
            v->sent = 1;
            break;
        case 'f':
            v->err.code = RL_E_TIMEOUT;
            v->sent = 1;
            break;
        case 'c':
            v->err.code = RL_E_CONNECT;
            v->sent = 0;
            break;
        case 's':
            v->err.code = RL_E_SKIPPED;
            v->sent = 1;
            break;
        case 'e':
            v->err.code = RL_E_REPLY;
            v->sent = 1;
            break;
        }
    }
    return n;
}

UNIT_TEST(test_quorum_sizes)
{
    CHECK(rl_quorum_of(1) == 1 && rl_quorum_of(2) == 2 && rl_quorum_of(3) == 2 && rl_quorum_of(4) == 3
              && rl_quorum_of(5) == 3 && rl_quorum_of(6) == 4 && rl_quorum_of(7) == 4,
          "quorum sizes");
}

/* All 32 yes/no patterns of five nodes: won exactly with three yes or more,
 * never an error, and a lost attempt is undone exactly where a node said yes. */
UNIT_TEST(test_quorum_32_patterns)
{
    unsigned mask;
    for (mask = 0; mask < 32; mask++) {
        char p[6];
        rl_vote votes[5];
        rl_count c;
        size_t i, yes = 0, undo = 0;
        rl_outcome o;
        for (i = 0; i < 5; i++) {
            p[i] = (mask >> i) & 1 ? 'y' : 'n';
            yes += (mask >> i) & 1;
        }
        p[5] = '\0';
        rl_count_votes(&c, votes, votes_of(p, votes));
        o = rl_decide(&c, 0, 0);
        CHECK(c.yes == yes && c.no == 5 - yes && c.failed == 0 && c.quorum == 3, "%s: counted %zu yes", p, c.yes);
        CHECK(o == (yes >= 3 ? RL_WON : RL_LOST), "%s: outcome %d", p, (int)o);
        CHECK(rl_attempt_needs_undo(&c) == (yes > 0), "%s: undo needed %d", p, rl_attempt_needs_undo(&c));
        for (i = 0; i < 5; i++) {
            undo += rl_needs_undo(&votes[i]);
            CHECK(rl_needs_undo(&votes[i]) == (p[i] == 'y'), "%s: node %zu undo", p, i);
        }
        CHECK(undo == yes, "%s: %zu undone", p, undo);
    }
}

/* With failures: 3^5 patterns of yes/no/failed. Two failures of five are
 * spared; three are an error whatever the others said. */
UNIT_TEST(test_quorum_failures)
{
    unsigned code, bad = 0;
    for (code = 0; code < 243; code++) {
        char p[6];
        rl_vote votes[5];
        rl_count c;
        unsigned x = code, i, yes = 0, failed = 0;
        rl_outcome o, want;
        for (i = 0; i < 5; i++, x /= 3) {
            p[i] = "ynf"[x % 3];
            yes += p[i] == 'y';
            failed += p[i] == 'f';
        }
        p[5] = '\0';
        rl_count_votes(&c, votes, votes_of(p, votes));
        o = rl_decide(&c, 0, 0);
        want = failed >= 3 ? RL_NO_QUORUM : yes >= 3 ? RL_WON : RL_LOST;
        if (o != want || c.failed != failed || rl_attempt_needs_undo(&c) != (yes > 0 || failed > 0)) {
            bad++;
            CHECK(0, "%s: outcome %d, want %d", p, (int)o, (int)want);
        }
        for (i = 0; i < 5; i++) {
            /* a node that timed out after the SET went out may hold it */
            if (rl_needs_undo(&votes[i]) != (p[i] != 'n')) {
                bad++;
                CHECK(0, "%s: node %u undo", p, i);
            }
            /* refuse_own: a failed node's lock of the token may be another's */
            if (rl_granted(&votes[i]) != (p[i] == 'y')) {
                bad++;
                CHECK(0, "%s: node %u granted", p, i);
            }
        }
    }
    CHECK(bad == 0, "243 patterns with failures");
}

UNIT_TEST(test_quorum_edges)
{
    rl_vote votes[8];
    rl_count c;

    /* one node: a quorum of one; its failure is an error */
    rl_count_votes(&c, votes, votes_of("y", votes));
    CHECK(rl_decide(&c, 0, 0) == RL_WON, "1 node yes");
    rl_count_votes(&c, votes, votes_of("n", votes));
    CHECK(rl_decide(&c, 0, 0) == RL_LOST && !rl_attempt_needs_undo(&c), "1 node no");
    rl_count_votes(&c, votes, votes_of("f", votes));
    CHECK(rl_decide(&c, 0, 0) == RL_NO_QUORUM, "1 node failed");
    /* a connect failure sent nothing: nothing to undo there */
    votes_of("c", votes);
    CHECK(!rl_needs_undo(&votes[0]), "connect failure undone");
    /* skipped nodes (decided early) are not failures but may hold our SET */
    rl_count_votes(&c, votes, votes_of("yyyss", votes));
    CHECK(rl_decide(&c, 0, 0) == RL_WON && c.skipped == 2 && c.failed == 0, "early win with 2 skipped");
    rl_count_votes(&c, votes, votes_of("nnnss", votes));
    CHECK(rl_decide(&c, 0, 0) == RL_LOST && rl_attempt_needs_undo(&c) && rl_needs_undo(&votes[3]),
          "early loss undoes skipped nodes");
    /* even node counts: 2 of 4 is not a quorum, 2 failed of 4 is an error */
    rl_count_votes(&c, votes, votes_of("yynn", votes));
    CHECK(rl_decide(&c, 0, 0) == RL_LOST, "2 of 4");
    rl_count_votes(&c, votes, votes_of("yyff", votes));
    CHECK(rl_decide(&c, 0, 0) == RL_NO_QUORUM, "2 failed of 4");
    rl_count_votes(&c, votes, votes_of("yyyf", votes));
    CHECK(rl_decide(&c, 0, 0) == RL_WON, "3 of 4, 1 failed");
}

UNIT_TEST(test_quorum_validity)
{
    rl_vote votes[5];
    rl_count c;
    int64_t start = 1000000, until;

    /* Redlock: ttl 1000 ms, drift 0.01: 10 ms + 2 ms allowed */
    until = rl_valid_until(start, 1000, 0.01, 1);
    CHECK(until == start + 988000, "validity of 1000 ms: %lld", (long long)(until - start));
    rl_count_votes(&c, votes, votes_of("yyynn", votes));
    CHECK(rl_decide(&c, until, until - 1) == RL_WON, "won 1 us before the end");
    CHECK(rl_decide(&c, until, until) == RL_LOST, "no validity left is not won");
    CHECK(rl_decide(&c, until, until + 5000000) == RL_LOST, "slow quorum is not won");
    /* a TTL within the drift allowance is never won */
    until = rl_valid_until(start, 2, 0.01, 1);
    CHECK(until <= start && rl_decide(&c, until, start) == RL_LOST, "ttl 2 ms under drift");
    until = rl_valid_until(start, 3, 0.01, 1);
    CHECK(until == start + 1000, "ttl 3 ms leaves 1 ms: %lld", (long long)(until - start));
    /* drift factor 0: only the 2 ms */
    CHECK(rl_valid_until(start, 100, 0.0, 1) == start + 98000, "drift 0");
    /* one node (no drift): the whole TTL */
    CHECK(rl_valid_until(start, 1000, 0.01, 0) == start + 1000000, "no drift");
    /* the largest TTL accepted (2^42 ms) does not overflow */
    until = rl_valid_until(start, (long long)1 << 42, 0.49, 1);
    CHECK(until > start, "huge ttl overflowed");
}

UNIT_TEST(test_quorum_pttl)
{
    rl_vote votes[5];
    votes_of("nnnyf", votes);
    votes[0].value = 500;
    votes[1].value = 200;
    votes[2].value = 900;
    votes[3].value = 10; /* a yes: not a holder's PTTL */
    votes[4].value = 1;  /* failed */
    CHECK(rl_shortest_pttl(votes, 5) == 200, "shortest PTTL %lld", rl_shortest_pttl(votes, 5));
    votes[2].value = -2; /* expired just now */
    CHECK(rl_shortest_pttl(votes, 5) == 0, "expired counts as 0");
    votes_of("nn", votes);
    votes[0].value = -1; /* no TTL */
    votes[1].value = -1;
    CHECK(rl_shortest_pttl(votes, 2) == -1, "none said");
}

UNIT_TEST(test_quorum_failure_report)
{
    rl_vote votes[5];
    votes_of("ffnyy", votes);
    CHECK(rl_failure_status(votes, 5) == RL_E_TIMEOUT && rl_failure_is_connection(votes, 5), "two timeouts");
    votes_of("fcnyy", votes);
    CHECK(rl_failure_status(votes, 5) == RL_E_NODES_UNREACHABLE && rl_failure_is_connection(votes, 5),
          "timeout + connect");
    votes_of("fenyy", votes);
    CHECK(rl_failure_status(votes, 5) == RL_E_NODES && !rl_failure_is_connection(votes, 5), "timeout + error reply");
    votes_of("eesyy", votes);
    CHECK(rl_failure_status(votes, 5) == RL_E_REPLY && !rl_failure_is_connection(votes, 5), "skipped is no failure");
}

/* Fencing on RedLock: the number is the largest a yes voter counted, and a
 * node that granted it with a lower count needs the write-back; nodes that
 * did not grant it are never raised (they prove nothing). */
UNIT_TEST(test_quorum_fence)
{
    rl_vote votes[5];
    size_t i, raise = 0;
    votes_of("yynyf", votes);
    votes[0].value = 7;
    votes[1].value = 9;
    votes[2].value = 50; /* a no: its value is a PTTL, not a count */
    votes[3].value = 9;
    votes[4].value = 99; /* failed: not counted */
    CHECK(rl_fence_of(votes, 5) == 9, "fence %lld", rl_fence_of(votes, 5));
    for (i = 0; i < 5; i++) {
        raise += rl_fence_needs_raise(&votes[i], 9);
    }
    CHECK(raise == 1 && !rl_fence_needs_raise(&votes[1], 9) && !rl_fence_needs_raise(&votes[3], 9)
              && rl_fence_needs_raise(&votes[0], 9) && !rl_fence_needs_raise(&votes[2], 9)
              && !rl_fence_needs_raise(&votes[4], 9),
          "raise the granting node below 9 only, not the no or the failed node: %zu", raise);
    votes_of("sny", votes);
    votes[0].value = 100; /* skipped: never read, so never trusted */
    votes[2].value = 3;
    CHECK(rl_fence_of(votes, 3) == 3 && !rl_fence_needs_raise(&votes[0], 3),
          "a skipped node's value is unknown: not raised");
    votes_of("nn", votes);
    CHECK(rl_fence_of(votes, 2) == 0, "no yes vote: no number");
}

/* An extend sent without the shared holders' key is asked again with it
 * when a node answered -1; a failed node's value means nothing. */
UNIT_TEST(test_quorum_extend_shared)
{
    rl_vote votes[3];
    votes_of("nyf", votes);
    votes[0].value = 0;
    votes[1].value = 1;
    votes[2].value = -1;
    CHECK(!rl_extend_wants_shared(votes, 3), "no node said shared");
    votes[0].value = -1;
    CHECK(rl_extend_wants_shared(votes, 3), "a no with -1 says shared");
}
