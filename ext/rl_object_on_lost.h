/* Option on_lost: when the watchdog knows a lock this thread holds is lost,
 * the thread's PHP code is stopped at its next opcode (the engine's
 * interrupt, as max_execution_time and pcntl's async signals use): a
 * RedisLockLostException ('throw'), or the option's callable runs there. */
#ifndef RL_OBJECT_ON_LOST_H
#define RL_OBJECT_ON_LOST_H
#include "php.h"
#include "src/lock/rl_watchdog.h"

/* MINIT: chains the engine's interrupt function. */
void rl_on_lost_init(void);

/* Reads the option: null, 'throw' or a callable, into *out (UNDEF for
 * null); throws and returns FAILURE on anything else. */
zend_result rl_on_lost_parse(zval *v, zval *out, uint32_t argnum);

/* A watch of this thread's lock: the watchdog interrupts this thread when
 * it turns lost. */
void rl_on_lost_watch(rl_watch_spec *spec);

/* RINIT: this thread's state back to none (a bailout may have left it). */
void rl_on_lost_reset(void);

/* true while the extension calls its own logger: a loss is told after it
 * (nested calls count). */
void rl_on_lost_quiet(bool on);

#endif
