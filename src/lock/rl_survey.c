/* The operator's reads (rl_survey.h): what INSPECT and SCAN answer. */
#include "rl_survey.h"
#include "../topology/rl_key_names.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>

static int is_bulk(const redisReply *r)
{
    return r->type == REDIS_REPLY_STRING;
}

/* INSPECT's reply: {kind, holders, pttl, waiters, fence, tokens}: a yes
 * with the first five in out->text as "KIND HOLDERS PTTL WAITERS FENCE" (kind one
 * of the script's words, checked); each holder's token told to op->on_key
 * (for the names it may carry; the caller shows no more of it). */
int rl_judge_inspect(const rl_lock_op *op, const void *r, rl_result *out, char *err, size_t errlen)
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
    snprintf(out->text, sizeof out->text, "%.*s %lld %lld %lld %lld", (int)k->len, k->str, reply->element[1]->integer,
             reply->element[2]->integer, reply->element[3]->integer, reply->element[4]->integer);
    return RL_REPLY_YES;
}

/* A cut key's end that reads as a derived key's ("\0" and a letter, then
 * at most a slot tag): its whole key is not here to be read back
 * (rl_key_listed() needs it), so a cut key ending so is left out. */
static int cut_tail_derived(const char *s, size_t len)
{
    size_t from = len > 8 ? len - 8 : 0;
    return memchr(s + from, '\0', len - from) != NULL;
}

static int is_sha1(const redisReply *s)
{
    return is_bulk(s) && s->len == 40 && strspn(s->str, "0123456789abcdef") == 40;
}

/* A long key as the script cuts it: [head, whole length, tail, SHA1]. */
static int is_cut(const redisReply *n)
{
    return n->type == REDIS_REPLY_ARRAY && n->elements == 4 && is_bulk(n->element[0])
           && n->element[0]->len == RL_SCAN_NAME_SHOWN && n->element[1]->type == REDIS_REPLY_INTEGER
           && n->element[1]->integer > RL_SCAN_NAME_SHOWN && is_bulk(n->element[2])
           && n->element[2]->len <= (size_t)n->element[1]->integer && is_sha1(n->element[3]);
}

/* A name the script sent (its key without the prefix): told to on_key when
 * its whole key is a lock's (rl_key_listed(): not a derived key's; an
 * escaped name's key tells its name). */
static void tell_listed(const rl_lock_op *op, const char *name, size_t len)
{
    char stack[RL_SCAN_NAME_SHOWN + 256];
    size_t full = op->name_at + len, at, n;
    char *key = full <= sizeof stack ? stack : malloc(full);
    if (key == NULL) {
        return;
    }
    memcpy(key, op->prefix, op->name_at);
    memcpy(key + op->name_at, name, len);
    if (rl_key_listed(key, full, &at, &n) && n >= op->name_at && memcmp(key + at, op->prefix, op->name_at) == 0) {
        op->on_key(op->on_key_ctx, key + at + op->name_at, n - op->name_at);
    }
    if (key != stack) {
        free(key);
    }
}

/* The scan script's reply: [cursor, after, [name | [head, length, tail, SHA1], ...]]:
 * a yes with the next cursor (and where its page goes on) in out->text; each
 * lock's name told to op->on_key (tell_listed()), a long one cut. */
int rl_judge_scan(const rl_lock_op *op, const void *r, rl_result *out, char *err, size_t errlen)
{
    const redisReply *reply = r;
    const redisReply *cur, *after, *names;
    char cut[RL_SCAN_NAME_SHOWN + RL_SCAN_CUT_MARK_MAX];
    size_t i;
    if (reply->elements != 3 || !is_bulk(cur = reply->element[0]) || cur->len == 0 || cur->len > 20
        || strspn(cur->str, "0123456789") != cur->len || !is_bulk(after = reply->element[1])
        || (after->len != 0 && !is_sha1(after)) || (names = reply->element[2])->type != REDIS_REPLY_ARRAY) {
        snprintf(err, errlen, "malformed reply to SCAN");
        return RL_REPLY_ERROR;
    }
    for (i = 0; i < names->elements; i++) {
        if (!is_bulk(names->element[i]) && !is_cut(names->element[i])) {
            snprintf(err, errlen, "malformed reply to SCAN");
            return RL_REPLY_ERROR;
        }
    }
    for (i = 0; i < names->elements && op->on_key != NULL; i++) {
        const redisReply *k = names->element[i];
        if (is_bulk(k)) {
            tell_listed(op, k->str, k->len);
        } else if (!cut_tail_derived(k->element[2]->str, k->element[2]->len)) {
            int mark;
            memcpy(cut, k->element[0]->str, RL_SCAN_NAME_SHOWN);
            mark = snprintf(cut + RL_SCAN_NAME_SHOWN, RL_SCAN_CUT_MARK_MAX, "... (%lld bytes, sha1 %s)",
                            k->element[1]->integer, k->element[3]->str);
            op->on_key(op->on_key_ctx, cut, RL_SCAN_NAME_SHOWN + (size_t)mark);
        }
    }
    snprintf(out->text, sizeof out->text, "%.*s%s%.*s", (int)cur->len, cur->str, after->len ? " " : "", (int)after->len,
             after->str);
    return RL_REPLY_YES;
}
