/* RedLock retries: how many tries, pauses within their bounds. */
#include "unit.h"
#include "../lock/rl_retry.h"
#include "../base/rl_token.h"

UNIT_TEST(test_retry_counts)
{
    rl_retry r;
    int again;
    rl_retry_start(&r, 3, 0, 10);
    for (again = 0; rl_retry_again(&r); again++) {
    }
    CHECK(again == 2, "3 tries in all gave %d more", again);
    rl_retry_start(&r, 0, 0, 10);
    CHECK(!rl_retry_again(&r), "retryCount 0 retried");
    rl_retry_start(&r, -5, 0, 10);
    CHECK(!rl_retry_again(&r), "negative count retried");
}

UNIT_TEST(test_retry_pauses)
{
    rl_retry r;
    int i, below = 0, above = 0, low_half = 0, high_half = 0;
    rl_retry_start(&r, 1, 100000, 200000);
    for (i = 0; i < 2000; i++) {
        int64_t p = rl_retry_pause_us(&r);
        below += p < 100000;
        above += p > 200000;
        low_half += p < 150000;
        high_half += p >= 150000;
    }
    CHECK(below == 0 && above == 0, "pauses out of [min, max]: %d below, %d above", below, above);
    CHECK(low_half > 800 && high_half > 800, "pauses not spread: %d / %d", low_half, high_half);
    rl_retry_start(&r, 1, 500, 100); /* max below min: min */
    CHECK(rl_retry_pause_us(&r) == 500, "max below min");
}

UNIT_TEST(test_random_bytes)
{
    unsigned char a[100], b[100];
    int i, same = 0;
    CHECK(rl_random_bytes(a, sizeof a) == 0 && rl_random_bytes(b, sizeof b) == 0, "random bytes failed");
    for (i = 0; i < 100; i++) {
        same += a[i] == b[i];
    }
    CHECK(same < 20, "two draws share %d of 100 bytes", same);
    CHECK(rl_random_bytes(a, 1000 < sizeof a ? 1000 : sizeof a) == 0, "draw");
}
