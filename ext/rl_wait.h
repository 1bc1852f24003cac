/* Waiting for a held lock: for now a retry after a short random pause.
 * (The waiting issue replaces this with a wake-up at release.) */
#ifndef RL_WAIT_H
#define RL_WAIT_H
#include <stdint.h>
#include <stdbool.h>

typedef struct rl_wait {
    int64_t deadline_us;
} rl_wait;

void rl_wait_start(rl_wait *w, double seconds);

/* Sleeps a little and returns true while time is left; false when not. */
bool rl_wait_again(rl_wait *w);

#endif
