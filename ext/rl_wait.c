#include "rl_wait.h"
#include "src/rl_clock.h"
#include <time.h>
#include <sys/random.h>

void rl_wait_start(rl_wait *w, double seconds, int64_t tries, int64_t pause_min_us, int64_t pause_max_us)
{
    w->deadline_us = seconds >= 0 ? rl_now_us() + (int64_t)(seconds * 1e6) : INT64_MAX;
    w->tries_left = tries > 0 ? tries - 1 : INT64_MAX;
    w->pause_min_us = pause_min_us;
    w->pause_max_us = pause_max_us > pause_min_us ? pause_max_us : pause_min_us;
}

bool rl_wait_again(rl_wait *w)
{
    int64_t left = w->deadline_us - rl_now_us();
    uint64_t r = 0;
    int64_t pause;
    struct timespec ts;

    if (left <= 0 || w->tries_left <= 0) {
        return false;
    }
    if (w->tries_left != INT64_MAX) {
        w->tries_left--;
    }
    (void)getrandom(&r, sizeof r, GRND_NONBLOCK);
    pause = w->pause_min_us + (int64_t)(r % (uint64_t)(w->pause_max_us - w->pause_min_us + 1));
    if (pause > left) {
        pause = left;
    }
    ts.tv_sec = pause / 1000000;
    ts.tv_nsec = (long)(pause % 1000000) * 1000;
    nanosleep(&ts, NULL);
    return true;
}
