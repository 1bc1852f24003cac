/* The exception classes, and the one map from core status to exception:
 * class, message and getCode() (the status: stable codes, see docs/errors.md). */
#ifndef RL_CLASS_ERRORS_H
#define RL_CLASS_ERRORS_H
#include "php.h"
#include "src/lock/rl_op.h"

extern zend_class_entry *rl_ce_exception;
extern zend_class_entry *rl_ce_connection_exception;
extern zend_class_entry *rl_ce_timeout_exception;
extern zend_class_entry *rl_ce_deadlock_exception;
extern zend_class_entry *rl_ce_lost_exception;

/* The class for a core status. */
zend_class_entry *rl_exception_class(int status);

/* Throws for a failure not tied to a node (no random bytes, not acquired
 * in time): the class of status, code status, message fmt. */
void rl_throw_status(int status, const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);

/* Throws for an operation that more nodes failed than a quorum can spare.
 * One node: "Redis node <name>: <err>". Several: "<k> of <n> Redis nodes
 * failed (quorum is <q>): <name>: <err>; ...". Code: the status the failed
 * nodes share, else RL_E_NODES_UNREACHABLE or RL_E_NODES (rl_failure_status());
 * the class that of the code, as for every throw. Names never carry
 * credentials. */
void rl_throw_nodes(const rl_vote *votes, size_t n, size_t quorum);

struct rl_deadlock;

/* RedisLockDeadlockException naming the cycle's resources (without the
 * object's prefix of prefix_len bytes). */
void rl_throw_deadlock(const struct rl_deadlock *d, size_t prefix_len);

#endif
