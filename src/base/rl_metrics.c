/* Pool-wide metrics (rl_metrics.h). */
#include "rl_metrics.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

const int64_t rl_metrics_bounds_us[RL_METRICS_BUCKETS] = {500,    1000,   2500,   5000,    10000,   25000,   50000,
                                                          100000, 250000, 500000, 1000000, 2500000, 5000000, 10000000};

/* The mapping: only relaxed atomic additions and loads touch it. */
typedef struct metrics_area {
    uint64_t counters[RL_M_COUNT];
    uint64_t errors[RL_STATUS_MAX + 1];
    struct {
        uint64_t buckets[RL_METRICS_BUCKETS + 1];
        uint64_t count;
        uint64_t sum_us;
    } hist[RL_H_COUNT];
} metrics_area;

static metrics_area *area;
static int area_shared;
static long opener;

/* Each counter's name (redislock_<name>_total) and help line. */
static const struct {
    const char *name, *help;
} counter_info[RL_M_COUNT] = {
    [RL_M_ACQUIRED] = {"acquired", "Locks, shared locks and permits taken."},
    [RL_M_CONTENDED] = {"contended", "Lock calls that found the resource held."},
    [RL_M_HANDOFFS] = {"handoffs", "Acquisitions after a wait in the queue."},
    [RL_M_EXTENDED] = {"extended", "Extensions that kept a lock (extend() and the watchdog)."},
    [RL_M_RELEASED] = {"released", "Releases that deleted a lock key (forceUnlock() included)."},
    [RL_M_AUTO_RELEASED] = {"auto_released", "Releases done for the user at destruction or request end."},
    [RL_M_EXPIRED] = {"expired", "Releases that found the lock expired (its TTL ran out while held)."},
    [RL_M_LOST] = {"lost", "auto_extend locks the watchdog could not keep."},
    [RL_M_FAILED] = {"failed", "Operations that threw a Redis or network error."},
    [RL_M_WAITS_WOKEN] = {"waits_woken", "Waits in a lock's queue ended by the release's wake."},
    [RL_M_WAITS_RECHECKED] = {"waits_rechecked",
                              "Waits in a lock's queue ended by the recheck timer or the holder's TTL, not woken."},
    [RL_M_WAKE_ERRORS] = {"wake_errors",
                          "Blocking reads of a waiter that a node refused or failed (after following redirections)."},
    [RL_M_EVICTION_RISK_NODES] = {"eviction_risk_nodes",
                                  "Nodes found able to evict lock keys (maxmemory set, a policy other than "
                                  "noeviction), each counted once by every process that found it."},
};

/* Each histogram's name (redislock_<name>) and help line. */
static const struct {
    const char *name, *help;
} hist_info[RL_H_COUNT] = {
    [RL_H_WAITED] = {"wait_seconds",
                     "Time lock calls that found the resource held waited in its queue, whether they got it or not."},
    [RL_H_HELD] = {"held_seconds", "Time from acquisition to release of released locks."},
};

int rl_metrics_open(void)
{
    void *p;
    if (area != NULL) {
        return 0;
    }
    opener = (long)getpid();
    p = mmap(NULL, sizeof(metrics_area), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
        area = p; /* zero-filled */
        area_shared = 1;
        return 0;
    }
    area = calloc(1, sizeof(metrics_area));
    area_shared = 0;
    return area != NULL ? 0 : -1;
}

void rl_metrics_close(void)
{
    if (area != NULL && area_shared) {
        munmap(area, sizeof(metrics_area));
    } else {
        free(area);
    }
    area = NULL;
    area_shared = 0;
    opener = 0;
}

long rl_metrics_opener(void)
{
    return opener;
}

int rl_metrics_shared(void)
{
    return area != NULL && area_shared;
}

static void add(uint64_t *at, uint64_t n)
{
    __atomic_fetch_add(at, n, __ATOMIC_RELAXED);
}

static uint64_t load(const uint64_t *at)
{
    return __atomic_load_n(at, __ATOMIC_RELAXED);
}

void rl_metrics_count(rl_metric m, uint64_t n)
{
    if (area != NULL && m >= 0 && m < RL_M_COUNT && n > 0) {
        add(&area->counters[m], n);
    }
}

void rl_metrics_error(int status)
{
    if (area != NULL && status > 0 && status <= RL_STATUS_MAX) {
        add(&area->errors[status], 1);
    }
}

void rl_metrics_observe(rl_histogram h, int64_t us)
{
    size_t b = 0;
    if (area == NULL || h < 0 || h >= RL_H_COUNT) {
        return;
    }
    if (us < 0) {
        us = 0;
    }
    while (b < RL_METRICS_BUCKETS && us > rl_metrics_bounds_us[b]) {
        b++;
    }
    add(&area->hist[h].buckets[b], 1);
    add(&area->hist[h].count, 1);
    add(&area->hist[h].sum_us, (uint64_t)us);
}

void rl_metrics_read(rl_metrics_view *v)
{
    size_t i, h;
    memset(v, 0, sizeof *v);
    if (area == NULL) {
        return;
    }
    for (i = 0; i < RL_M_COUNT; i++) {
        v->counters[i] = load(&area->counters[i]);
    }
    for (i = 0; i <= RL_STATUS_MAX; i++) {
        v->errors[i] = load(&area->errors[i]);
    }
    for (h = 0; h < RL_H_COUNT; h++) {
        for (i = 0; i <= RL_METRICS_BUCKETS; i++) {
            v->hist[h].buckets[i] = load(&area->hist[h].buckets[i]);
        }
        v->hist[h].count = load(&area->hist[h].count);
        v->hist[h].sum_us = load(&area->hist[h].sum_us);
    }
}

const char *rl_metric_name(rl_metric m)
{
    return m >= 0 && m < RL_M_COUNT ? counter_info[m].name : "unknown";
}

/* An snprintf that keeps count of what the whole text needs. */
typedef struct text {
    char *buf;
    size_t cap, len;
} text;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(t->len < t->cap ? t->buf + t->len : NULL, t->len < t->cap ? t->cap - t->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0) {
        t->len += (size_t)n;
    }
}

/* µs as seconds, exactly (no float rounding). */
static void put_seconds(text *t, uint64_t us)
{
    put(t, "%llu.%06llu", (unsigned long long)(us / 1000000), (unsigned long long)(us % 1000000));
}

size_t rl_metrics_prometheus(const rl_metrics_view *v, char *buf, size_t cap)
{
    text t = {buf, cap, 0};
    size_t i, h;
    int code;

    if (cap > 0) {
        buf[0] = '\0';
    }
    for (i = 0; i < RL_M_COUNT; i++) {
        put(&t, "# HELP redislock_%s_total %s\n# TYPE redislock_%s_total counter\nredislock_%s_total %llu\n",
            counter_info[i].name, counter_info[i].help, counter_info[i].name, counter_info[i].name,
            (unsigned long long)v->counters[i]);
    }
    put(&t, "# HELP redislock_errors_total Operations that threw, by error code (the exception's getCode()).\n"
            "# TYPE redislock_errors_total counter\n");
    for (code = 1; code <= RL_STATUS_MAX; code++) {
        if (code != RL_E_SKIPPED) { /* never thrown */
            put(&t, "redislock_errors_total{code=\"%d\",reason=\"%s\"} %llu\n", code, rl_status_name(code),
                (unsigned long long)v->errors[code]);
        }
    }
    for (h = 0; h < RL_H_COUNT; h++) {
        uint64_t cumulative = 0;
        put(&t, "# HELP redislock_%s %s\n# TYPE redislock_%s histogram\n", hist_info[h].name, hist_info[h].help,
            hist_info[h].name);
        for (i = 0; i < RL_METRICS_BUCKETS; i++) {
            cumulative += v->hist[h].buckets[i];
            put(&t, "redislock_%s_bucket{le=\"", hist_info[h].name);
            put_seconds(&t, (uint64_t)rl_metrics_bounds_us[i]);
            put(&t, "\"} %llu\n", (unsigned long long)cumulative);
        }
        cumulative += v->hist[h].buckets[RL_METRICS_BUCKETS];
        put(&t, "redislock_%s_bucket{le=\"+Inf\"} %llu\nredislock_%s_sum ", hist_info[h].name,
            (unsigned long long)cumulative, hist_info[h].name);
        put_seconds(&t, v->hist[h].sum_us);
        put(&t, "\nredislock_%s_count %llu\n", hist_info[h].name, (unsigned long long)cumulative); /* = +Inf's */
    }
    return t.len;
}
