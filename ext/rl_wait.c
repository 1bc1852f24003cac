#include "rl_wait.h"
#include "src/rl_clock.h"
#include <stdlib.h>
#include <time.h>
#include <sys/random.h>

void rl_wait_start(rl_wait *w, double seconds)
{
    w->deadline_us = rl_now_us() + (int64_t)(seconds * 1e6);
}

bool rl_wait_again(rl_wait *w)
{
    int64_t left = w->deadline_us - rl_now_us();
    unsigned int jitter = 0;
    int64_t pause;
    struct timespec ts;

    if (left <= 0) {
        return false;
    }
    (void)getrandom(&jitter, sizeof jitter, GRND_NONBLOCK);
    pause = 5000 + (int64_t)(jitter % 10000); /* 5..15 ms, spread so waiters do not move in step */
    if (pause > left) {
        pause = left;
    }
    ts.tv_sec = pause / 1000000;
    ts.tv_nsec = (long)(pause % 1000000) * 1000;
    nanosleep(&ts, NULL);
    return true;
}
