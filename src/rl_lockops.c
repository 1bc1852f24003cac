#include "rl_lockops.h"
#include "rl_status.h"
#include <stdio.h>
#include <string.h>
#include <hiredis/hiredis.h>

/* The scripts and their SHA1s (printf '%s' "$script" | sha1sum). A wrong
 * SHA1 would show as an EVAL on every call: tests/ count EVALs. */
static const char release_lua[] =
    "if redis.call(\"get\", KEYS[1]) == ARGV[1] then return redis.call(\"del\", KEYS[1]) end return 0";
static const char release_sha[] = "08782137c8358e2fede877aa6fa70109ca306cec";
static const char extend_lua[] =
    "if redis.call(\"get\", KEYS[1]) == ARGV[1] then return redis.call(\"pexpire\", KEYS[1], ARGV[2]) end return 0";
static const char extend_sha[] = "9352e91107b43434874173104edc9681ed08d5ed";
static const char acquire_lua[] =
    "local v = redis.call(\"get\", KEYS[1]) if v == ARGV[1] then return redis.call(\"pexpire\", KEYS[1], ARGV[2]) end"
    " if v then return 0 end redis.call(\"set\", KEYS[1], ARGV[1], \"px\", ARGV[2]) return 1";
static const char acquire_sha[] = "267ee7ec98cf08c28f49342bd240e8c40eaf3fac";

static int append_script(rl_conn *c, const rl_op *op, const char *lua, const char *sha,
                         int use_eval, int with_ttl, int64_t now_us)
{
    char ttl[24];
    const char *argv[6];
    size_t lens[6];
    int argc = 0;

    argv[argc] = use_eval ? "EVAL" : "EVALSHA";
    lens[argc++] = use_eval ? 4 : 7;
    argv[argc] = use_eval ? lua : sha;
    lens[argc++] = strlen(argv[1]);
    argv[argc] = "1";
    lens[argc++] = 1;
    argv[argc] = op->key;
    lens[argc++] = op->key_len;
    argv[argc] = op->token;
    lens[argc++] = op->token_len;
    if (with_ttl) {
        argv[argc] = ttl;
        lens[argc++] = (size_t)snprintf(ttl, sizeof ttl, "%lld", op->ttl_ms);
    }
    return rl_conn_append(c, argc, argv, lens, now_us);
}

static int append_set(rl_conn *c, const rl_op *op, int64_t now_us)
{
    char ttl[24];
    const char *argv[6] = {"SET", op->key, op->token, "NX", "PX", ttl};
    size_t lens[6] = {3, op->key_len, op->token_len, 2, 2, 0};
    lens[5] = (size_t)snprintf(ttl, sizeof ttl, "%lld", op->ttl_ms);
    return rl_conn_append(c, 6, argv, lens, now_us);
}

int rl_op_append(rl_conn *c, const rl_op *op, rl_send_form form, int64_t now_us)
{
    int eval = (form == RL_FORM_EVAL || form == RL_FORM_RETRY_EVAL);
    switch (op->kind) {
    case RL_OP_LOCK:
        if (form == RL_FORM_FIRST) {
            return append_set(c, op, now_us);
        }
        return append_script(c, op, acquire_lua, acquire_sha, eval, 1, now_us);
    case RL_OP_UNLOCK:
        return append_script(c, op, release_lua, release_sha, eval, 0, now_us);
    case RL_OP_EXTEND:
        return append_script(c, op, extend_lua, extend_sha, eval, 1, now_us);
    }
    return RL_E_PROTOCOL;
}

int rl_op_judge(const rl_op *op, const void *r, char *err, size_t errlen)
{
    const redisReply *reply = r;

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
    case REDIS_REPLY_NIL: /* SET NX: held by someone */
        if (op->kind == RL_OP_LOCK) {
            return RL_REPLY_NO;
        }
        break;
    case REDIS_REPLY_INTEGER: /* scripts */
        return reply->integer == 1 ? RL_REPLY_YES : RL_REPLY_NO;
    }
    snprintf(err, errlen, "unexpected reply of type %d", reply->type);
    return RL_REPLY_ERROR;
}

int rl_handshake_append(rl_conn *c, int64_t now_us)
{
    int n = 0;
    if (c->ep.password) {
        const char *argv[3] = {"AUTH", c->ep.username, c->ep.password};
        size_t lens[3] = {4, c->ep.username ? strlen(c->ep.username) : 0, strlen(c->ep.password)};
        if (c->ep.username == NULL) {
            argv[1] = argv[2];
            lens[1] = lens[2];
        }
        if (rl_conn_append(c, c->ep.username ? 3 : 2, argv, lens, now_us) != 0) {
            return -1;
        }
        n++;
    }
    if (c->ep.database != 0) {
        char db[24];
        const char *argv[2] = {"SELECT", db};
        size_t lens[2] = {6, 0};
        lens[1] = (size_t)snprintf(db, sizeof db, "%ld", c->ep.database);
        if (rl_conn_append(c, 2, argv, lens, now_us) != 0) {
            return -1;
        }
        n++;
    }
    return n;
}
