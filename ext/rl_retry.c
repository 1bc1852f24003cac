#include "rl_retry.h"
#include <time.h>
#include <sys/random.h>

void rl_retry_start(rl_retry *r, int64_t tries, int64_t pause_min_us, int64_t pause_max_us)
{
    r->tries_left = (tries > 0 ? tries : 1) - 1;
    r->pause_min_us = pause_min_us;
    r->pause_max_us = pause_max_us > pause_min_us ? pause_max_us : pause_min_us;
}

bool rl_retry_again(rl_retry *r)
{
    uint64_t rnd = 0;
    int64_t pause;
    struct timespec ts;

    if (r->tries_left <= 0) {
        return false;
    }
    r->tries_left--;
    (void)getrandom(&rnd, sizeof rnd, GRND_NONBLOCK);
    pause = r->pause_min_us + (int64_t)(rnd % (uint64_t)(r->pause_max_us - r->pause_min_us + 1));
    ts.tv_sec = pause / 1000000;
    ts.tv_nsec = (long)(pause % 1000000) * 1000;
    nanosleep(&ts, NULL);
    return true;
}
