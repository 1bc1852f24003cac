/* The watchdog tells a watch's owner it lost it (on_lost, then
 * rl_watch_take_lost()): a timer watch when its validity ends, a capped
 * one then too, an extended one that could not be extended in time; each
 * loss once, none after a renewal or removal, none to another owner. Its
 * name holds "watchdog": run under ThreadSanitizer too (run.sh). */
#include <unistd.h>
#include "unit.h"
#include "unit_watch.h"
#include "../lock/rl_watchdog.h"
#include "../lock/rl_lockops.h"
#include "../base/rl_clock.h"

#if RL_HAVE_WATCHDOG

static int told; /* on_lost calls (from the watchdog thread) */

static void count_told(void *arg)
{
    __atomic_fetch_add((int *)arg, 1, __ATOMIC_RELAXED);
}

static int told_count(void)
{
    return __atomic_load_n(&told, __ATOMIC_RELAXED);
}

static const char owner_a[1], owner_b[1];

/* A watch told to count_told, valid for ttl_ms; timer_only, or extended on
 * a node that refuses connections. */
static uint64_t watch_told(long long ttl_ms, int timer_only, int64_t max_hold_us, const void *owner)
{
    rl_endpoint ep;
    const rl_endpoint *eps[1];
    rl_watch_spec s;
    unit_watch_spec(&s, &ep, eps, ttl_ms, max_hold_us, owner);
    s.n = timer_only ? 0 : 1;
    s.timer_only = timer_only;
    s.on_lost = count_told;
    s.on_lost_arg = &told;
    return rl_watch_add(&s);
}

/* Polls until id's state is want, or 2 s pass. */
static int becomes(uint64_t id, int want)
{
    int64_t until, end = rl_now_us() + 2000000;
    while (rl_now_us() < end) {
        if (rl_watch_state(id, &until) == want) {
            return 1;
        }
        usleep(2000);
    }
    return 0;
}

/* Polls until on_lost was called more than `before` times, or 2 s pass. */
static int told_after(int before)
{
    int64_t end = rl_now_us() + 2000000;
    while (rl_now_us() < end) {
        if (told_count() > before) {
            return 1;
        }
        usleep(2000);
    }
    return 0;
}

/* The one loss of owner's waiting is id's, for why? */
static int taken_as(const void *owner, uint64_t id, int why)
{
    uint64_t ids[4];
    int whys[4];
    return rl_watch_take_lost(owner, ids, whys, 4) == 1 && ids[0] == id && whys[0] == why;
}

UNIT_TEST(test_watchdog_told_lost)
{
    uint64_t id, other, ids[4];
    int whys[4], before;
    int64_t until;

    before = told_count();
    id = watch_told(30, 1, 0, owner_a);
    CHECK(id != 0, "timer watch not added");
    CHECK(rl_watch_take_lost(owner_a, ids, whys, 4) == 0, "a loss taken before the validity ended");
    CHECK(told_after(before), "a timer watch's end not told");
    CHECK(rl_watch_take_lost(owner_b, ids, whys, 4) == 0, "another owner took the loss");
    CHECK(taken_as(owner_a, id, RL_WATCH_WHY_EXPIRED), "the timer's loss not taken as expired");
    CHECK(rl_watch_take_lost(owner_a, ids, whys, 4) == 0, "one loss taken twice");
    CHECK(rl_watch_state(id, &until) == RL_WATCH_ACTIVE, "a timer watch changed state");
    usleep(20000);
    CHECK(told_count() == before + 1, "a timer told twice (%d)", told_count() - before);

    /* renewed: timed again from the new validity; a loss not yet taken is dropped */
    before = told_count();
    rl_watch_renewed(id, 20, rl_now_us() + 20000);
    CHECK(told_after(before), "a renewed timer's end not told");
    rl_watch_renewed(id, 5000, rl_now_us() + 5000000);
    CHECK(rl_watch_take_lost(owner_a, ids, whys, 4) == 0, "a loss taken after its watch was renewed");
    /* removed: its loss goes with it */
    before = told_count();
    rl_watch_renewed(id, 10, rl_now_us() + 10000);
    CHECK(told_after(before), "a renewed timer's end not told");
    rl_watch_remove(id);
    CHECK(rl_watch_take_lost(owner_a, ids, whys, 4) == 0, "a removed watch's loss taken");

    /* extended on a refusing node: lost when its validity ends untried-for */
    before = told_count();
    id = watch_told(90, 0, 0, owner_a);
    other = watch_told(5000, 1, 0, owner_b);
    CHECK(told_after(before) && becomes(id, RL_WATCH_LOST), "a lost watch not told, or never lost");
    CHECK(taken_as(owner_a, id, RL_WATCH_WHY_EXPIRED), "not taken as not extended in time");
    rl_watch_remove(id);

    /* capped before its first extension: told when its validity ends */
    before = told_count();
    id = watch_told(150, 0, 20000, owner_a);
    CHECK(told_after(before) && rl_watch_state(id, &until) == RL_WATCH_CAPPED,
          "a capped watch's end not told, or its state changed");
    CHECK(taken_as(owner_a, id, RL_WATCH_WHY_EXPIRED), "a capped watch's end not taken as expired");
    rl_watch_clear(owner_a);
    CHECK(rl_watch_state(other, &until) == RL_WATCH_ACTIVE && rl_watch_take_lost(owner_b, ids, whys, 4) == 0,
          "another owner's timer told early");
    rl_watch_clear(owner_b);
    rl_watch_shutdown();
}

#endif
