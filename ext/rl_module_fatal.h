/* Locks released at a fatal error itself, not at the request's end. */
#ifndef RL_MODULE_FATAL_H
#define RL_MODULE_FATAL_H

#include "php.h"

/* MINIT: watch the engine's errors (zend_observer_error_register). */
void rl_fatal_init(void);

/* Whether error $type ends the script here: the caller goes no further
 * (a user error handler may take E_USER_ERROR and E_RECOVERABLE_ERROR). */
bool rl_fatal_error(int type);

/* True while this thread releases its locks inside a fatal error: no user
 * code (a logger) may run then. */
bool rl_fatal_releasing(void);

#endif
