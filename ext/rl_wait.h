/* Retrying a lock that is held: a deadline and/or a number of tries, with
 * a random pause between tries so competing clients do not move in step. */
#ifndef RL_WAIT_H
#define RL_WAIT_H
#include <stdint.h>
#include <stdbool.h>

typedef struct rl_wait {
    int64_t deadline_us;   /* INT64_MAX: no deadline */
    int64_t tries_left;    /* INT64_MAX: no limit */
    int64_t pause_min_us, pause_max_us;
} rl_wait;

/* Up to `seconds` (when >= 0) and up to `tries` tries in all (when > 0). */
void rl_wait_start(rl_wait *w, double seconds, int64_t tries, int64_t pause_min_us, int64_t pause_max_us);

/* After a failed try: sleeps a random pause (cut short by the deadline)
 * and returns true while another try is allowed. */
bool rl_wait_again(rl_wait *w);

#endif
