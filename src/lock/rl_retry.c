#include "rl_retry.h"
#include "../base/rl_token.h"
#include <time.h>

void rl_retry_start(rl_retry *r, int64_t tries, int64_t pause_min_us, int64_t pause_max_us)
{
    r->tries_left = (tries > 0 ? tries : 1) - 1;
    r->pause_min_us = pause_min_us;
    r->pause_max_us = pause_max_us > pause_min_us ? pause_max_us : pause_min_us;
}

int64_t rl_retry_pause_us(const rl_retry *r)
{
    uint64_t rnd = 0;
    if (rl_random_bytes(&rnd, sizeof rnd) != 0) {
        rnd = 0;
    }
    return r->pause_min_us + (int64_t)(rnd % (uint64_t)(r->pause_max_us - r->pause_min_us + 1));
}

bool rl_retry_again(rl_retry *r)
{
    int64_t pause;
    struct timespec ts;

    if (r->tries_left <= 0) {
        return false;
    }
    r->tries_left--;
    pause = rl_retry_pause_us(r);
    ts.tv_sec = pause / 1000000;
    ts.tv_nsec = (long)(pause % 1000000) * 1000;
    nanosleep(&ts, NULL);
    return true;
}
