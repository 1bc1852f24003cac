/* What operators see: per-worker counters (phpinfo(), RedisLock::stats())
 * and the optional per-object logger. */
#ifndef RL_MODULE_OBSERVE_H
#define RL_MODULE_OBSERVE_H
#include "php.h"
#include "php_redislock.h"

/* The counters (rl_counters, rl_stats) are per process: a PHP-FPM worker's,
 * across its requests; every thread's together on a ZTS PHP (RL_COUNT). */

/* Validates a logger option: a callable, or an object with a log() method. */
zend_result rl_logger_check(zval *logger, uint32_t argnum);

/* Sends one event to the logger: logger($level, $message, $context) or
 * $logger->log($level, $message, $context), PSR-3 style. The context gets
 * event, resource (the name the caller gave) and key (with the prefix) on
 * top of what the caller put in; never a full token or a password. An
 * exception thrown by the logger propagates to the caller's caller. */
void rl_log(zval *logger, const char *level, const char *event, zend_string *key, size_t prefix_len, zval *context);

/* The same for an event about a node, not a lock: the message names the
 * node (its address, never a password), the context gets event and node. */
void rl_log_node(zval *logger, const char *level, const char *event, const char *node, zval *context);
/* The resource a lock key names (its len bytes; inside key): without
 * the object's prefix of prefix_len bytes, an escaped key's name unescaped. */
const char *rl_resource_of(zend_string *key, size_t prefix_len, size_t *len);

/* The pool-wide metrics (src/base/rl_metrics.h): phpinfo() rows, and
 * RedisLock::metrics()'s Prometheus text. */
void rl_metrics_info(void);
zend_string *rl_metrics_text(void);

/* phpinfo() rows, and RedisLock::stats(). */
void rl_counters_info(void);
void rl_counters_to_array(zval *out);

#endif
