/* Monotonic clock: lock validity must not jump with NTP or the wall clock. */
#ifndef RL_CLOCK_H
#define RL_CLOCK_H
#include <stdint.h>

/* Microseconds on CLOCK_MONOTONIC, from an arbitrary origin. */
int64_t rl_now_us(void);

/* Sleeps until rl_now_us() reaches until_us (at once when it has). */
void rl_sleep_until_us(int64_t until_us);

#endif
