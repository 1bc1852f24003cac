/* The operator's reads (rl_survey.h): what INSPECT and SCAN answer. */
#include "rl_survey.h"
#include "../topology/rl_key_names.h"
#include <stdio.h>
#include <string.h>
#include <hiredis/hiredis.h>

static int is_bulk(const redisReply *r)
{
    return r->type == REDIS_REPLY_STRING;
}

/* INSPECT's reply: {kind, holders, pttl, waiters, fence, tokens}: a yes
 * with the first five in err as "KIND HOLDERS PTTL WAITERS FENCE" (kind one
 * of the script's words, checked); each holder's token told to op->on_key
 * (for the names it may carry; the caller shows no more of it). */
int rl_judge_inspect(const rl_op *op, const void *r, char *err, size_t errlen)
{
    const redisReply *reply = r;
    static const char *const kinds[] = {"free", "lock", "shared", "semaphore", "other"};
    const redisReply *k, *tokens;
    size_t i, known = 0;
    if (reply->elements != 6 || !is_bulk(k = reply->element[0])
        || (tokens = reply->element[5])->type != REDIS_REPLY_ARRAY) {
        snprintf(err, errlen, "malformed reply to the inspect script");
        return RL_REPLY_ERROR;
    }
    for (i = 1; i < 5; i++) {
        if (reply->element[i]->type != REDIS_REPLY_INTEGER) {
            snprintf(err, errlen, "malformed reply to the inspect script");
            return RL_REPLY_ERROR;
        }
    }
    for (i = 0; i < tokens->elements; i++) {
        if (!is_bulk(tokens->element[i])) {
            snprintf(err, errlen, "malformed reply to the inspect script");
            return RL_REPLY_ERROR;
        }
    }
    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        known = known || (k->len == strlen(kinds[i]) && memcmp(k->str, kinds[i], k->len) == 0);
    }
    if (!known) {
        snprintf(err, errlen, "malformed reply to the inspect script");
        return RL_REPLY_ERROR;
    }
    for (i = 0; i < tokens->elements && op->on_key != NULL; i++) {
        op->on_key(op->on_key_ctx, tokens->element[i]->str, tokens->element[i]->len);
    }
    snprintf(err, errlen, "%.*s %lld %lld %lld %lld", (int)k->len, k->str, reply->element[1]->integer,
             reply->element[2]->integer, reply->element[3]->integer, reply->element[4]->integer);
    return RL_REPLY_YES;
}

/* SCAN's reply: [cursor, [key, ...]]: a yes with the next cursor in err;
 * each lock key's name (prefix and resource: rl_key_listed(), not a
 * derived key's) told to op->on_key. */
int rl_judge_scan(const rl_op *op, const void *r, char *err, size_t errlen)
{
    const redisReply *reply = r;
    const redisReply *cur, *keys;
    size_t i;
    if (reply->elements != 2 || !is_bulk(cur = reply->element[0]) || cur->len == 0 || cur->len > 20
        || strspn(cur->str, "0123456789") != cur->len || (keys = reply->element[1])->type != REDIS_REPLY_ARRAY) {
        snprintf(err, errlen, "malformed reply to SCAN");
        return RL_REPLY_ERROR;
    }
    for (i = 0; i < keys->elements; i++) {
        if (!is_bulk(keys->element[i])) {
            snprintf(err, errlen, "malformed reply to SCAN");
            return RL_REPLY_ERROR;
        }
    }
    for (i = 0; i < keys->elements; i++) {
        const redisReply *k = keys->element[i];
        size_t at, n;
        if (op->on_key != NULL && rl_key_listed(k->str, k->len, &at, &n)) {
            op->on_key(op->on_key_ctx, k->str + at, n);
        }
    }
    snprintf(err, errlen, "%.*s", (int)cur->len, cur->str);
    return RL_REPLY_YES;
}
