#ifndef PHP_REDISLOCK_H
#define PHP_REDISLOCK_H

#include "php.h"
#include "src/topology/rl_node.h"
#include "src/base/rl_metrics.h"

#define PHP_REDISLOCK_VERSION "0.5.0"

extern zend_module_entry redislock_module_entry;
#define phpext_redislock_ptr &redislock_module_entry

typedef struct rl_object rl_object;

typedef struct rl_counters {
    zend_ulong acquired;         /* locks taken (of every kind) */
    zend_ulong acquired_shared;  /* of those, shared locks */
    zend_ulong acquired_permits; /* of those, semaphore permits */
    zend_ulong contended;        /* lock calls that found the resource held */
    zend_ulong failed;           /* operations that threw a Redis or network error */
    zend_ulong released;         /* releases that deleted our key */
    zend_ulong auto_released;    /* of those, done for the user at destruction or request end */
    zend_ulong expired;          /* releases that found the lock no longer ours (TTL ran out) */
    zend_ulong lost;             /* auto_extend locks the watchdog could not keep, as seen by the request */
    zend_ulong late_grants; /* grants whose reply came after the lock's validity ran out: taken back, not returned */
} rl_counters;

/* The module globals are per PHP thread on a thread-safe (ZTS) PHP, as
 * FrankenPHP runs it, and per process otherwise (a PHP-FPM worker, the
 * CLI): what a request uses and what its thread keeps between requests.
 * Its tables are made by GINIT and freed by GSHUTDOWN (or MSHUTDOWN for the
 * thread that runs it), in persistent memory: a thread's connections are
 * never used by another thread. */
ZEND_BEGIN_MODULE_GLOBALS(redislock)
double connect_timeout;     /* redislock.connect_timeout */
double timeout;             /* redislock.timeout */
bool persistent;            /* redislock.persistent */
bool auto_release;          /* redislock.auto_release */
bool tables_ready;          /* the pool and the topology cache initialized (GINIT) and not yet freed */
rl_object *live;            /* objects of this request holding locks, for RSHUTDOWN */
HashTable pool;             /* persistent connections of this thread (ext/rl_pool.c) */
rl_topology_cache topology; /* the masters and slot maps this thread's nodes found (src/topology/rl_node.h) */
ZEND_END_MODULE_GLOBALS(redislock)

ZEND_EXTERN_MODULE_GLOBALS(redislock)
#define RLG(v) ZEND_MODULE_GLOBALS_ACCESSOR(redislock, v)

/* What the watchdog knows a request's locks by: its thread's globals (the
 * one process-wide watchdog serves every thread; a request's end stops the
 * watches of its own thread only). */
#define RL_THREAD_OWNER ((const void *)&RLG(live))

/* The counters of stats() and phpinfo() are per process, all threads
 * together: one table, not the module globals. On a thread-safe PHP every
 * count is a relaxed atomic addition (threads count at once); on the usual
 * PHP it is the plain addition it always was. */
extern rl_counters rl_stats;
#ifdef ZTS
#define RL_COUNT_ADD(field, n) ((void)__atomic_fetch_add(&rl_stats.field, (zend_ulong)(n), __ATOMIC_RELAXED))
#define RL_STAT(field) __atomic_load_n(&rl_stats.field, __ATOMIC_RELAXED)
#else
#define RL_COUNT_ADD(field, n) ((void)(rl_stats.field += (zend_ulong)(n)))
#define RL_STAT(field) (rl_stats.field)
#endif
/* RL_COUNT also adds to the pool-wide counter of that name in the shared
 * metrics (src/base/rl_metrics.h); RL_M_COUNT: a per-process one only. */
#define RL_METRIC_OF_acquired RL_M_ACQUIRED
#define RL_METRIC_OF_contended RL_M_CONTENDED
#define RL_METRIC_OF_failed RL_M_FAILED
#define RL_METRIC_OF_released RL_M_RELEASED
#define RL_METRIC_OF_auto_released RL_M_AUTO_RELEASED
#define RL_METRIC_OF_expired RL_M_EXPIRED
#define RL_METRIC_OF_lost RL_M_LOST
#define RL_METRIC_OF_late_grants RL_M_COUNT
#define RL_COUNT(field) (RL_COUNT_ADD(field, 1), rl_metrics_count(RL_METRIC_OF_##field, 1))

#endif
