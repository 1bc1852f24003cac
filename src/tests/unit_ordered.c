/* The ordered take of several resources (rl_ordered.h) on a scripted
 * store, and the count a quorum of release votes reached. */
#include <string.h>
#include "unit.h"
#include "../base/rl_status.h"
#include "../lock/rl_ordered.h"
#include "../lock/rl_quorum.h"

#define N 4

typedef struct store {
    int take_result[N]; /* what take(i) answers: 1, 0, -1 */
    int held[N];        /* the call's token holds it */
    int64_t until[N];
    int extend_result[N];
    int takes[N], extends[N], releases[N], forgets[N];
    int fail_on_take; /* -1 from take also leaves an error pending */
    int failed;
    int retake_ok; /* on a second round every take succeeds */
    int rounds;
} store;

static int64_t now = 1000000;
static int64_t fake_now(void)
{
    return now;
}

static int take(void *ctx, size_t i, int *got)
{
    store *s = ctx;
    int r = s->take_result[i];
    if (i == 0) {
        s->rounds++;
    }
    if (s->rounds > 1 && s->retake_ok) {
        r = 1;
        s->extend_result[i] = 1; /* taken anew: no longer lost */
    }
    s->takes[i]++;
    if (r == 1) {
        *got = 1;
        s->held[i] = 1;
        s->until[i] = now + 10000 * (int64_t)(i + 1); /* a later one taken later: more validity */
    }
    if (r < 0 && s->fail_on_take) {
        s->failed = 1;
    }
    return r;
}

static int validity(void *ctx, size_t i, int64_t *until)
{
    store *s = ctx;
    *until = s->until[i];
    return s->held[i];
}

static void set_validity(void *ctx, size_t i, int64_t until)
{
    ((store *)ctx)->until[i] = until;
}

static int extend(void *ctx, size_t i)
{
    store *s = ctx;
    s->extends[i]++;
    if (s->extend_result[i] == 1) {
        s->until[i] = now + 50000;
    } else {
        s->held[i] = 0;
    }
    return s->extend_result[i];
}

static void release(void *ctx, size_t i)
{
    store *s = ctx;
    s->releases[i]++;
    s->held[i] = 0;
}

static void forget(void *ctx, size_t i)
{
    store *s = ctx;
    s->forgets[i]++;
    s->held[i] = 0;
}

static int failed(void *ctx)
{
    return ((store *)ctx)->failed;
}

static int take_all(store *s, size_t n, int owner)
{
    rl_ordered t = {.n = n,
                    .owner = owner,
                    .deadline_us = now + 1000000,
                    .take = take,
                    .validity = validity,
                    .set_validity = set_validity,
                    .extend = extend,
                    .release = release,
                    .forget = forget,
                    .failed = failed,
                    .now_us = fake_now,
                    .ctx = s};
    return rl_ordered_take(&t);
}

UNIT_TEST(test_ordered_take_all_one_validity)
{
    store s = {.take_result = {1, 1, 1}, .extend_result = {1, 1, 1}};
    CHECK(take_all(&s, 3, 0) == 1 && s.takes[0] == 1 && s.takes[2] == 1, "every one taken, in order");
    /* taken at once: each within nine tenths of the last's validity? the
     * first has 10 ms of the last's 30: extended */
    CHECK(s.extends[0] == 1 && s.extends[1] == 1, "the earlier ones below nine tenths extended: %d %d", s.extends[0],
          s.extends[1]);
    CHECK(s.until[0] == s.until[1] && s.until[1] == s.until[2] && s.until[2] == now + 30000,
          "one validity, the earliest to run out: %lld %lld %lld", (long long)s.until[0], (long long)s.until[1],
          (long long)s.until[2]);
}

UNIT_TEST(test_ordered_take_rollback)
{
    store s = {.take_result = {1, 1, 0, 1}};
    CHECK(take_all(&s, 4, 0) == 0, "the third not had: not taken");
    CHECK(s.takes[3] == 0 && s.releases[0] == 1 && s.releases[1] == 1 && s.releases[2] == 0,
          "stops there, the ones taken released");

    memset(&s, 0, sizeof s);
    s.take_result[0] = 1;
    s.take_result[1] = -1;
    s.fail_on_take = 1;
    CHECK(take_all(&s, 3, 0) == -1 && s.releases[0] == 1, "a failure: -1, the one taken released");

    /* an owner's token: nothing released; the ones this call took are
     * forgotten, one held before is kept */
    memset(&s, 0, sizeof s);
    s.held[0] = 1;
    s.until[0] = now + 5000;
    s.take_result[0] = 1;
    s.take_result[1] = 1;
    s.take_result[2] = 0;
    CHECK(take_all(&s, 3, 1) == 0 && s.releases[0] + s.releases[1] == 0 && s.forgets[0] == 0 && s.forgets[1] == 1,
          "an owner's: none released, the one it took forgotten");
}

UNIT_TEST(test_ordered_take_lost_meanwhile)
{
    /* the first expired during the wait for the last: its extend finds it
     * lost; all are released and taken again in order, then held */
    store s = {.take_result = {1, 1}, .retake_ok = 1};
    CHECK(take_all(&s, 2, 0) == 1 && s.rounds == 2 && s.releases[0] == 1 && s.releases[1] == 1 && s.held[0]
              && s.held[1],
          "released and taken again: %d rounds", s.rounds);

    /* past the deadline (or an owner's token): not again, the call fails */
    memset(&s, 0, sizeof s);
    s.take_result[0] = s.take_result[1] = 1;
    s.retake_ok = 1;
    CHECK(take_all(&s, 2, 1) == 0 && s.rounds == 1 && s.forgets[0] == 1 && s.forgets[1] == 1,
          "an owner's token: not taken again, what it took forgotten");
}

UNIT_TEST(test_quorum_count)
{
    rl_vote v[3];
    memset(v, 0, sizeof v);
    v[0].yes = v[1].yes = v[2].yes = 1;
    v[0].value = 3;
    v[1].value = 2;
    v[2].value = 3;
    CHECK(rl_quorum_count(v, 3, 2) == 3, "two of three released 3");
    v[2].value = 1;
    CHECK(rl_quorum_count(v, 3, 2) == 2, "a quorum reached 2 (3 and 2)");
    v[1].err.code = RL_E_TIMEOUT;
    CHECK(rl_quorum_count(v, 3, 2) == 1, "a failed vote counts nothing: 1");
    CHECK(rl_quorum_count(v, 1, 1) == 3, "one node: its count");
}
