#ifndef RL_CLASS_REDLOCK_H
#define RL_CLASS_REDLOCK_H
#include "php.h"

extern zend_class_entry *rl_ce_redlock;

/* Sets the create/free handlers on the registered class. */
void rl_redlock_init(zend_class_entry *ce);

#endif
