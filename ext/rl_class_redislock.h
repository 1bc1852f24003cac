#ifndef RL_CLASS_REDISLOCK_H
#define RL_CLASS_REDISLOCK_H
#include "php.h"

extern zend_class_entry *rl_ce_redislock;

/* Sets the create/free handlers on the registered class. */
void rl_redislock_init(zend_class_entry *ce);

#endif
