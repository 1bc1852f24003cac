/*
 * A fatal error (memory limit, max_execution_time, an uncaught Error, a
 * bailout) releases the dying code's locks and stops their watchdog
 * entries at the error itself. Request end is not enough: a host may go on
 * after the bailout in the same request (the parallel extension's
 * runtimes run their thread's next task), and the dead code's objects are
 * then never destroyed. The release is RSHUTDOWN's own (auto_release
 * objects only), for this thread only; RSHUTDOWN later finds nothing left.
 */
#include "config.h"
#include "rl_module_fatal.h"
#include "php_redislock.h"
#include "src/lock/rl_watchdog.h"
#include "rl_object.h"
#include "zend_observer.h"

ZEND_TLS bool releasing; /* ZEND_TLS: static, and per thread on a thread-safe PHP */

bool rl_fatal_error(int type)
{
    if (type & (E_ERROR | E_PARSE | E_CORE_ERROR | E_COMPILE_ERROR)) {
        return true; /* never given to a user handler */
    }
    if (!(type & (E_USER_ERROR | E_RECOVERABLE_ERROR))) {
        return false;
    }
    /* zend_error_zstr_at: without a handler for this type these end the script */
    return Z_TYPE(EG(user_error_handler)) == IS_UNDEF || !(EG(user_error_handler_error_reporting) & type)
           || EG(error_handling) != EH_NORMAL;
}

bool rl_fatal_releasing(void)
{
    return releasing;
}

static void on_error(int type, zend_string *file, uint32_t line, zend_string *message)
{
    (void)file, (void)line, (void)message;
    if (!rl_fatal_error(type) || releasing) {
        return;
    }
    releasing = true;
    rl_watch_clear(RL_THREAD_OWNER);
    rl_release_live_objects();
    releasing = false;
}

void rl_fatal_init(void)
{
    zend_observer_error_register(on_error);
}
