#ifndef PHP_REDISLOCK_H
#define PHP_REDISLOCK_H

#include "php.h"

#define PHP_REDISLOCK_VERSION "0.1.0"

extern zend_module_entry redislock_module_entry;
#define phpext_redislock_ptr &redislock_module_entry

typedef struct rl_object rl_object;

ZEND_BEGIN_MODULE_GLOBALS(redislock)
    double connect_timeout;  /* redislock.connect_timeout */
    double timeout;          /* redislock.timeout */
    bool persistent;         /* redislock.persistent */
    bool auto_release;       /* redislock.auto_release */
    rl_object *live;         /* objects of this request holding locks, for RSHUTDOWN */
ZEND_END_MODULE_GLOBALS(redislock)

ZEND_EXTERN_MODULE_GLOBALS(redislock)
#define RLG(v) ZEND_MODULE_GLOBALS_ACCESSOR(redislock, v)

#endif
