#include "rl_class_errors.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"
#include "src/lock/rl_quorum.h"
#include "src/base/rl_status.h"
#include "src/base/rl_metrics.h"
#include "src/lock/rl_deadlock.h"

zend_class_entry *rl_ce_exception;
zend_class_entry *rl_ce_connection_exception;
zend_class_entry *rl_ce_timeout_exception;
zend_class_entry *rl_ce_deadlock_exception;
zend_class_entry *rl_ce_lost_exception;

zend_class_entry *rl_exception_class(int status)
{
    switch (rl_status_class_of(status)) {
    case RL_CLASS_TIMEOUT:
        return rl_ce_timeout_exception;
    case RL_CLASS_DEADLOCK:
        return rl_ce_deadlock_exception;
    case RL_CLASS_LOST:
        return rl_ce_lost_exception;
    case RL_CLASS_CONNECTION:
        return rl_ce_connection_exception;
    default:
        return rl_ce_exception;
    }
}

void rl_throw_status(int status, const char *fmt, ...)
{
    va_list ap;
    zend_string *msg;

    va_start(ap, fmt);
    msg = zend_vstrpprintf(0, fmt, ap);
    va_end(ap);
    rl_metrics_error(status);
    zend_throw_exception(rl_exception_class(status), ZSTR_VAL(msg), status);
    zend_string_release(msg);
}

void rl_throw_nodes(const rl_vote *votes, size_t n, size_t quorum)
{
    int status = rl_failure_status(votes, n);
    zend_class_entry *ce = rl_exception_class(status);
    smart_str msg = {0};
    const char *sep = "";
    size_t i, failed = 0;

    for (i = 0; i < n; i++) {
        failed += votes[i].err.code != RL_OK && votes[i].err.code != RL_E_SKIPPED;
    }
    if (n == 1) {
        smart_str_append_printf(&msg, "Redis node %s: %s", votes[0].conn->name, votes[0].err.msg);
    } else {
        smart_str_append_printf(&msg, "%zu of %zu Redis nodes failed (quorum is %zu): ", failed, n, quorum);
        for (i = 0; i < n; i++) {
            if (votes[i].err.code != RL_OK && votes[i].err.code != RL_E_SKIPPED) {
                smart_str_append_printf(&msg, "%s%s: %s", sep, votes[i].conn->name, votes[i].err.msg);
                sep = "; ";
            }
        }
    }
    smart_str_0(&msg);
    rl_metrics_error(status);
    zend_throw_exception(ce, ZSTR_VAL(msg.s), status);
    smart_str_free(&msg);
}

void rl_throw_deadlock(const rl_deadlock *d, size_t prefix_len)
{
    smart_str msg = {0};
    size_t i, shown = d->cycle_n < RL_DEADLOCK_SHOWN ? d->cycle_n : RL_DEADLOCK_SHOWN;

    /* "A" is held by a process that waits for "B", held by ... this process;
       a long name cut: "A..." (N bytes) */
    for (i = 0; i < shown; i++) {
        const char *name = d->cycle_len[i] > prefix_len ? d->cycle[i] + prefix_len : d->cycle[i];
        char whole[48] = "";
        if (d->cycle_whole[i] > d->cycle_len[i]) {
            snprintf(whole, sizeof whole, "...\" (%zu bytes)", d->cycle_whole[i] - prefix_len);
        }
        if (i == 0) {
            smart_str_append_printf(&msg, "waiting for \"%s%s would deadlock: it is held by ", name,
                                    whole[0] ? whole : "\"");
        } else {
            smart_str_append_printf(&msg, "a process that waits for \"%s%s, held by ", name, whole[0] ? whole : "\"");
        }
    }
    if (shown < d->cycle_n) {
        smart_str_append_printf(&msg, "... (%zu locks in all) ", d->cycle_n);
    }
    smart_str_appends(&msg, "this process");
    smart_str_0(&msg);
    rl_metrics_error(RL_E_DEADLOCK);
    zend_throw_exception(rl_ce_deadlock_exception, ZSTR_VAL(msg.s), RL_E_DEADLOCK);
    smart_str_free(&msg);
}
