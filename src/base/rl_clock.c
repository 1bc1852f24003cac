#include "rl_clock.h"
#include <time.h>

int64_t rl_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void rl_sleep_until_us(int64_t until_us)
{
    int64_t left = until_us - rl_now_us();
    if (left > 0) {
        struct timespec ts = {left / 1000000, (long)(left % 1000000) * 1000};
        nanosleep(&ts, NULL);
    }
}
