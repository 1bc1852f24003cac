#include "rl_lockops.h"
#include "rl_scripts.h"
#include "../base/rl_status.h"
#include "../topology/rl_sentinel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>

#define MAX_ARGS 10

typedef struct argv_builder {
    const char *argv[MAX_ARGS];
    size_t lens[MAX_ARGS];
    int argc;
    char nums[3][24];
    int nnums;
} argv_builder;

static void arg(argv_builder *b, const char *s, size_t len)
{
    b->argv[b->argc] = s;
    b->lens[b->argc++] = len;
}

static void arg_num(argv_builder *b, long long v)
{
    char *buf = b->nums[b->nnums++];
    arg(b, buf, (size_t)snprintf(buf, 24, "%lld", v));
}

static void script_head(argv_builder *b, rl_script s, int eval, const rl_op *op)
{
    const char *body = eval ? rl_script_source(s) : rl_script_sha(s);
    arg(b, eval ? "EVAL" : "EVALSHA", eval ? 4 : 7);
    arg(b, body, strlen(body));
    arg(b, "1", 1);
    arg(b, op->key, op->key_len);
}

/* BLPOP "<key>\0w<waiter>" <seconds>: Redis 6+ takes a decimal timeout. */
static int append_wake_wait(rl_conn *c, const rl_op *op, int64_t now_us)
{
    size_t len = op->key_len + 2 + op->waiter_len;
    char *list = malloc(len), secs[32];
    argv_builder b = {.argc = 0};
    int rc;

    if (list == NULL) {
        return RL_E_NOMEM;
    }
    memcpy(list, op->key, op->key_len);
    memcpy(list + op->key_len, "\0w", 2);
    memcpy(list + op->key_len + 2, op->waiter, op->waiter_len);
    arg(&b, "BLPOP", 5);
    arg(&b, list, len);
    arg(&b, secs, (size_t)snprintf(secs, sizeof secs, "%lld.%03lld", op->wait_ms / 1000, op->wait_ms % 1000));
    rc = rl_conn_append(c, b.argc, b.argv, b.lens, now_us);
    free(list);
    return rc;
}

int rl_op_append(rl_conn *c, const rl_op *op, rl_send_form form, int64_t now_us)
{
    int eval = (form == RL_FORM_EVAL || form == RL_FORM_RETRY_EVAL);
    argv_builder b = {.argc = 0};

    switch (op->kind) {
    case RL_OP_LOCK:
        if (form == RL_FORM_FIRST) {
            arg(&b, "SET", 3);
            arg(&b, op->key, op->key_len);
            arg(&b, op->token, op->token_len);
            arg(&b, "NX", 2);
            arg(&b, "PX", 2);
            arg_num(&b, op->ttl_ms);
            break;
        }
        /* a retry after a lost connection: our own token counts as ours */
        script_head(&b, RL_SCRIPT_ACQUIRE, eval, op);
        arg(&b, op->token, op->token_len);
        arg_num(&b, op->ttl_ms);
        break;
    case RL_OP_UNLOCK:
        script_head(&b, RL_SCRIPT_RELEASE, eval, op);
        arg(&b, op->token, op->token_len);
        break;
    case RL_OP_EXTEND:
        script_head(&b, RL_SCRIPT_EXTEND, eval, op);
        arg(&b, op->token, op->token_len);
        arg_num(&b, op->ttl_ms);
        break;
    case RL_OP_LOCK_WAIT:
        script_head(&b, RL_SCRIPT_ACQUIRE_WAIT, eval, op);
        arg(&b, op->token, op->token_len);
        arg_num(&b, op->ttl_ms);
        arg(&b, op->waiter, op->waiter_len);
        arg_num(&b, op->wait_ms);
        arg(&b, op->enqueue ? "1" : "0", 1);
        break;
    case RL_OP_LEAVE:
        /* sent without waiting for the reply, so no NOSCRIPT fallback: EVAL */
        script_head(&b, RL_SCRIPT_LEAVE, 1, op);
        arg(&b, op->waiter, op->waiter_len);
        break;
    case RL_OP_WAKE_WAIT:
        return append_wake_wait(c, op, now_us);
    case RL_OP_SENTINEL_MASTER:
        arg(&b, "SENTINEL", 8);
        arg(&b, "get-master-addr-by-name", 23);
        arg(&b, op->key, op->key_len);
        break;
    case RL_OP_ROLE:
        arg(&b, "ROLE", 4);
        break;
    }
    return rl_conn_append(c, b.argc, b.argv, b.lens, now_us);
}

int rl_op_wants_ack(const rl_op *op)
{
    return op->min_replicas > 0
        && (op->kind == RL_OP_LOCK || op->kind == RL_OP_LOCK_WAIT || op->kind == RL_OP_EXTEND);
}

int rl_ack_append(rl_conn *c, const rl_op *op, int64_t now_us)
{
    argv_builder b = {.argc = 0};
    arg(&b, "WAIT", 4);
    arg_num(&b, op->min_replicas);
    arg_num(&b, op->replica_timeout_ms > 0 ? op->replica_timeout_ms : 1);
    return rl_conn_append(c, b.argc, b.argv, b.lens, now_us);
}

int rl_ack_judge(const rl_op *op, const void *r, char *err, size_t errlen)
{
    const redisReply *reply = r;
    if (reply->type == REDIS_REPLY_INTEGER) {
        if (reply->integer >= op->min_replicas) {
            return RL_REPLY_YES;
        }
        snprintf(err, errlen, "acknowledged by %lld of %d required replicas within %lld ms", reply->integer,
                 op->min_replicas, op->replica_timeout_ms);
        return RL_REPLY_NO;
    }
    if (reply->type == REDIS_REPLY_ERROR) {
        snprintf(err, errlen, "WAIT refused: %.*s", (int)reply->len, reply->str);
    } else {
        snprintf(err, errlen, "unexpected reply of type %d to WAIT", reply->type);
    }
    return RL_REPLY_ERROR;
}

int rl_undos_append(rl_conn *c, int64_t now_us)
{
    int i, n = 0;
    for (i = 0; i < c->undos; i++) {
        size_t key_len = c->undo_key_len[i];
        rl_op op = {RL_OP_UNLOCK, c->undo[i], key_len, c->undo[i] + key_len, c->undo_len[i] - key_len, 0};
        if (rl_op_append(c, &op, RL_FORM_EVAL, now_us) == 0) {
            n++;
        }
    }
    rl_conn_clear_undos(c);
    return n;
}

/* Sentinel's answer and ROLE (src/topology/rl_sentinel.c judges them). */
static int judge_topology(const rl_op *op, const redisReply *reply, long long *value, char *err, size_t errlen)
{
    rl_sentinel_addr addr;
    int v;

    if (op->kind == RL_OP_ROLE) {
        v = rl_sentinel_judge_role(reply, err, errlen);
    } else {
        v = rl_sentinel_judge_master(reply, &addr, err, errlen);
        if (v == RL_SENTINEL_OK) {
            snprintf(err, errlen, "%s", addr.host);
            *value = addr.port;
        }
    }
    if (v == RL_SENTINEL_BAD && reply->type == REDIS_REPLY_ERROR
        && (strncmp(reply->str, "NOAUTH", 6) == 0 || strncmp(reply->str, "WRONGPASS", 9) == 0)) {
        return RL_REPLY_NOAUTH;
    }
    return v == RL_SENTINEL_OK ? RL_REPLY_YES : v == RL_SENTINEL_NO ? RL_REPLY_NO : RL_REPLY_ERROR;
}

int rl_op_judge(const rl_op *op, const void *r, long long *value, char *err, size_t errlen)
{
    const redisReply *reply = r;

    *value = 0;
    if (op->kind == RL_OP_SENTINEL_MASTER || op->kind == RL_OP_ROLE) {
        return judge_topology(op, reply, value, err, errlen);
    }
    switch (reply->type) {
    case REDIS_REPLY_ERROR:
        snprintf(err, errlen, "%.*s", (int)reply->len, reply->str);
        if (strncmp(reply->str, "NOSCRIPT", 8) == 0) {
            return RL_REPLY_NOSCRIPT;
        }
        if (strncmp(reply->str, "NOAUTH", 6) == 0 || strncmp(reply->str, "WRONGPASS", 9) == 0) {
            return RL_REPLY_NOAUTH;
        }
        return RL_REPLY_ERROR;
    case REDIS_REPLY_STATUS: /* SET NX: +OK */
        if (op->kind == RL_OP_LOCK && strcmp(reply->str, "OK") == 0) {
            return RL_REPLY_YES;
        }
        break;
    case REDIS_REPLY_NIL: /* SET NX: held by someone; BLPOP: not woken in time */
        if (op->kind == RL_OP_LOCK || op->kind == RL_OP_WAKE_WAIT) {
            return RL_REPLY_NO;
        }
        break;
    case REDIS_REPLY_ARRAY: /* BLPOP: woken */
        if (op->kind == RL_OP_WAKE_WAIT) {
            return RL_REPLY_YES;
        }
        break;
    case REDIS_REPLY_INTEGER: /* scripts */
        *value = reply->integer;
        if (op->kind == RL_OP_LOCK_WAIT) {
            return reply->integer == -3 ? RL_REPLY_YES : RL_REPLY_NO;
        }
        return reply->integer == 1 ? RL_REPLY_YES : RL_REPLY_NO;
    }
    snprintf(err, errlen, "unexpected reply of type %d", reply->type);
    return RL_REPLY_ERROR;
}

int rl_handshake_append(rl_conn *c, int64_t now_us)
{
    argv_builder b = {.argc = 0};
    int n = 0;

    if (c->ep.password) {
        arg(&b, "AUTH", 4);
        if (c->ep.username) {
            arg(&b, c->ep.username, strlen(c->ep.username));
        }
        arg(&b, c->ep.password, strlen(c->ep.password));
        if (rl_conn_append(c, b.argc, b.argv, b.lens, now_us) != 0) {
            return -1;
        }
        n++;
    }
    if (c->ep.database != 0) {
        b.argc = b.nnums = 0;
        arg(&b, "SELECT", 6);
        arg_num(&b, c->ep.database);
        if (rl_conn_append(c, b.argc, b.argv, b.lens, now_us) != 0) {
            return -1;
        }
        n++;
    }
    return n;
}
