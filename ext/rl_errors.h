/* The exception classes, and the one mapping from core status to class. */
#ifndef RL_ERRORS_H
#define RL_ERRORS_H
#include "php.h"
#include "src/rl_fanout.h"

extern zend_class_entry *rl_ce_exception;
extern zend_class_entry *rl_ce_connection_exception;
extern zend_class_entry *rl_ce_timeout_exception;

/* Throws the exception class for status, with message "node: err". */
void rl_throw_node_error(const rl_vote *vote);

/* The class for a core status. */
zend_class_entry *rl_exception_class(int status);

#endif
