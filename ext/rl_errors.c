#include "rl_errors.h"
#include "zend_exceptions.h"
#include "src/rl_status.h"

zend_class_entry *rl_ce_exception;
zend_class_entry *rl_ce_connection_exception;
zend_class_entry *rl_ce_timeout_exception;

zend_class_entry *rl_exception_class(int status)
{
    return rl_status_is_connection(status) ? rl_ce_connection_exception : rl_ce_exception;
}

void rl_throw_node_error(const rl_vote *vote)
{
    zend_throw_exception_ex(rl_exception_class(vote->status), 0, "Redis node %s: %s",
                            vote->conn->name, vote->err);
}
