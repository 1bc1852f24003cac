/* Pool-wide metrics: counters and histograms in one shared anonymous
 * mapping, made when the module starts (in php-fpm's master, before it
 * forks its workers), so that every worker adds to the same numbers and
 * any one request reads the whole pool. A CLI process or a worker of a
 * thread-safe PHP has its own (its threads share it).
 *
 * Updates are relaxed atomic additions on the mapping, no lock: what a
 * reader gets is every number as it stood at some moment of its read, not
 * one snapshot of them all. Plain C, no PHP. */
#ifndef RL_METRICS_H
#define RL_METRICS_H
#include <stddef.h>
#include <stdint.h>
#include "rl_status.h"

/* The counters. */
typedef enum rl_metric {
    RL_M_ACQUIRED = 0,        /* locks, shared locks and permits taken */
    RL_M_CONTENDED,           /* lock calls that found the resource held */
    RL_M_HANDOFFS,            /* acquisitions after a wait in the queue (woken at a release, or at the TTL's end) */
    RL_M_EXTENDED,            /* extend() calls and watchdog extensions that kept the lock */
    RL_M_RELEASED,            /* releases that deleted a lock key (forceUnlock() too) */
    RL_M_AUTO_RELEASED,       /* of those, done for the user at destruction or request end */
    RL_M_EXPIRED,             /* releases that found the lock no longer ours (its TTL ran out) */
    RL_M_LOST,                /* auto_extend locks the watchdog could not keep */
    RL_M_FAILED,              /* operations that threw a Redis or network error */
    RL_M_WAITS_WOKEN,         /* waits in a queue ended by a release's wake (rl_wait.c) */
    RL_M_WAITS_RECHECKED,     /* ended by the recheck timer or the holder's TTL */
    RL_M_WAKE_ERRORS,         /* a node's blocking read refused or failed */
    RL_M_EVICTION_RISK_NODES, /* nodes found able to evict lock keys (maxmemory, an evicting policy),
                                 each once per process that found it */
    RL_M_COUNT
} rl_metric;

/* The histograms, in seconds. */
typedef enum rl_histogram {
    RL_H_WAITED = 0, /* how long lock calls that found the resource held waited in its queue, won or not
                        (RedLock's retry mode, a wait of null, sleeps between tries: not counted) */
    RL_H_HELD,       /* from acquisition to release, of released locks */
    RL_H_COUNT
} rl_histogram;

/* Upper bounds of the buckets, in µs (a last one, +Inf, is implied). */
#define RL_METRICS_BUCKETS 14
extern const int64_t rl_metrics_bounds_us[RL_METRICS_BUCKETS];

/* Makes the mapping (a private one when the system refuses a shared one;
 * the numbers are then this process's only). Idempotent; 0, or -1 when
 * no memory at all could be had (every update is then a no-op). */
int rl_metrics_open(void);

/* Unmaps it (the module's end); updates after it are no-ops. */
void rl_metrics_close(void);

/* Whether the numbers are shared with the processes forked after open. */
int rl_metrics_shared(void);

/* The process that opened the mapping (0: none): a php-fpm worker that
 * opened it itself (the extension loaded by the pool's
 * php_admin_value[extension], after the fork) shares it with nobody. */
long rl_metrics_opener(void);

void rl_metrics_count(rl_metric m, uint64_t n);

/* An exception thrown with this status as its code (any RedisLockException). */
void rl_metrics_error(int status);

/* One observation of us microseconds (negative counts as 0). */
void rl_metrics_observe(rl_histogram h, int64_t us);

/* What one read gives. */
typedef struct rl_metrics_view {
    uint64_t counters[RL_M_COUNT];
    uint64_t errors[RL_STATUS_MAX + 1]; /* by status code; [0] unused */
    struct {
        uint64_t buckets[RL_METRICS_BUCKETS + 1]; /* per bucket (not cumulative), the last +Inf */
        uint64_t count;
        uint64_t sum_us;
    } hist[RL_H_COUNT];
} rl_metrics_view;

/* Reads every number (zeros when the mapping is not there). */
void rl_metrics_read(rl_metrics_view *v);

/* Writes v in the Prometheus text exposition format (version 0.0.4) to
 * buf: the length it needs without the NUL (as snprintf: nothing past cap
 * is written, and buf is NUL-terminated when cap > 0). */
size_t rl_metrics_prometheus(const rl_metrics_view *v, char *buf, size_t cap);

/* The name a counter has in phpinfo() and the Prometheus text
 * (redislock_<name>_total). */
const char *rl_metric_name(rl_metric m);

#endif
