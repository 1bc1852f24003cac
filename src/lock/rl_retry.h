/* RedLock's retries when lock() is given no wait: a number of tries with a
 * random pause between them, so competing clients do not move in step. */
#ifndef RL_RETRY_H
#define RL_RETRY_H
#include <stdint.h>
#include <stdbool.h>

typedef struct rl_retry {
    int64_t tries_left;
    int64_t pause_min_us, pause_max_us;
} rl_retry;

/* Up to `tries` tries in all (at least one). */
void rl_retry_start(rl_retry *r, int64_t tries, int64_t pause_min_us, int64_t pause_max_us);

/* A random pause in [min, max] µs (the random source of src/base/rl_token.c;
 * min when it gives nothing). */
int64_t rl_retry_pause_us(const rl_retry *r);

/* After a failed try: sleeps rl_retry_pause_us() and returns true while
 * another try is allowed. */
bool rl_retry_again(rl_retry *r);

#endif
