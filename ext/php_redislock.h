#ifndef PHP_REDISLOCK_H
#define PHP_REDISLOCK_H

#include "php.h"

#define PHP_REDISLOCK_VERSION "0.1.0"

extern zend_module_entry redislock_module_entry;
#define phpext_redislock_ptr &redislock_module_entry

typedef struct rl_object rl_object;

typedef struct rl_counters {
    zend_ulong acquired;      /* locks taken (of every kind) */
    zend_ulong acquired_shared;  /* of those, shared locks */
    zend_ulong acquired_permits; /* of those, semaphore permits */
    zend_ulong contended;     /* lock calls that found the resource held */
    zend_ulong failed;        /* operations that threw a Redis or network error */
    zend_ulong released;      /* releases that deleted our key */
    zend_ulong auto_released; /* of those, done for the user at destruction or request end */
    zend_ulong expired;       /* releases that found the lock no longer ours (TTL ran out) */
    zend_ulong lost;          /* auto_extend locks the watchdog could not keep, as seen by the request */
    zend_ulong cluster_redirects;     /* MOVED and ASK redirections followed */
    zend_ulong cluster_map_refreshes; /* slot maps asked for (CLUSTER SLOTS) */
} rl_counters;

ZEND_BEGIN_MODULE_GLOBALS(redislock)
    double connect_timeout;  /* redislock.connect_timeout */
    double timeout;          /* redislock.timeout */
    bool persistent;         /* redislock.persistent */
    bool auto_release;       /* redislock.auto_release */
    rl_object *live;         /* objects of this request holding locks, for RSHUTDOWN */
    rl_counters stats;       /* per process: a PHP-FPM worker's, across its requests */
    HashTable pool;          /* persistent connections of this process (ext/rl_pool.c) */
    HashTable masters;       /* sentinel group => its master's address, per process (ext/rl_topology.c) */
    HashTable cluster_maps;  /* cluster seeds => its slot map, per process (ext/rl_cluster.c) */
ZEND_END_MODULE_GLOBALS(redislock)

ZEND_EXTERN_MODULE_GLOBALS(redislock)
#define RLG(v) ZEND_MODULE_GLOBALS_ACCESSOR(redislock, v)

#endif
