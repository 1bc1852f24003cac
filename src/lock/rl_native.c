#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include "rl_native.h"
#include "rl_lock_keys.h"
#include "../base/rl_status.h"
#include "../transport/rl_argv.h"
#include <string.h>
#include <strings.h>
#include <hiredis/hiredis.h>

int rl_native_release_fits(const rl_conn *c, const rl_lock_op *op, rl_send_form form, int prefixed)
{
    return op->kind == RL_OP_UNLOCK && op->plain && !op->force && !op->done && !op->one_key && !op->repeat && !prefixed
           && form == RL_FORM_FIRST && (c->caps.delifeq == 1 || c->caps.delex == 1);
}

int rl_native_release_append(rl_conn *c, const rl_lock_op *op, int64_t now_us)
{
    rl_argv b = {.argc = 0};
    rl_lock_keys k;
    int q = RL_KEY_SLOT(RL_KEY_QUEUE), rc;

    if (rl_lock_keys_make(&k, op->key, op->key_len) != 0) {
        return RL_E_NOMEM;
    }
    if (c->caps.delifeq == 1) {
        rl_argv_add(&b, "DELIFEQ", 7);
        rl_argv_add(&b, op->key, op->key_len);
    } else {
        rl_argv_add(&b, "DELEX", 5);
        rl_argv_add(&b, op->key, op->key_len);
        rl_argv_add(&b, "IFEQ", 4);
    }
    rl_argv_add(&b, op->token, op->token_len);
    rc = rl_argv_append(c, &b, now_us);
    if (rc == 0) {
        b.argc = 0;
        rl_argv_add(&b, "EXISTS", 6);
        rl_argv_add(&b, k.buf[q], k.len[q]);
        rc = rl_argv_append(c, &b, now_us);
    }
    rl_lock_keys_free(&k);
    return rc == 0 ? 0 : RL_E_NOMEM;
}

/* Does s (len bytes) start with prefix, in any case? */
static int starts(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && strncasecmp(s, prefix, n) == 0;
}

/* Does the error name the command cmd ('cmd', in any case) before its
 * echo of the arguments (which may hold any key or token)? */
static int names(const char *err, size_t len, const char *cmd)
{
    size_t n = strlen(cmd), i;
    const char *args = memmem(err, len, ", with args", 11);
    size_t upto = args != NULL ? (size_t)(args - err) : len;
    for (i = 0; i + n + 2 <= upto; i++) {
        if (err[i] == '\'' && err[i + n + 1] == '\'' && strncasecmp(err + i + 1, cmd, n) == 0) {
            return 1;
        }
    }
    return 0;
}

int rl_native_refused(rl_conn *c, const char *err, size_t len)
{
    if (starts(err, len, "WRONGTYPE")) {
        /* the key is another kind now (the script answers for any kind; a
         * script's own WRONGTYPE is sent again as EVAL and fails there) */
        return 1;
    }
    if ((starts(err, len, "ERR unknown command") || starts(err, len, "NOPERM"))
        && (names(err, len, "delex") || names(err, len, "delifeq"))) {
        c->caps.delex = c->caps.delifeq = 0; /* the script, now and from now on */
        return 1;
    }
    return 0;
}

int rl_native_judge_queue(const void *reply, rl_result *out)
{
    const redisReply *r = reply;
    if (r->type != REDIS_REPLY_INTEGER || r->integer != 0) {
        out->value = RL_RELEASE_WAKE_OWED;
    }
    return RL_REPLY_YES;
}
