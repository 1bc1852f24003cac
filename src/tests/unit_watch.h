/* The watchdog tests' shared watch (unit_watchdog.c). */
#ifndef RL_UNIT_WATCH_H
#define RL_UNIT_WATCH_H
#include <stdint.h>
#include "../lock/rl_watchdog.h"

/* *s: a lock "lock:w" of ttl_ms on one node that refuses connections
 * (*ep, listed in eps[0]), valid for ttl_ms from now, added by owner. */
void unit_watch_spec(rl_watch_spec *s, rl_endpoint *ep, const rl_endpoint **eps, long long ttl_ms, int64_t max_hold_us,
                     const void *owner);

#endif
