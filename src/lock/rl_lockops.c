#include "rl_lockops.h"
#include "rl_lock_keys.h"
#include "rl_lock_state.h"
#include "rl_manyops.h"
#include "rl_native.h"
#include "rl_deadlock.h"
#include "rl_survey.h"
#include "rl_scripts.h"
#include "../base/rl_status.h"
#include "../base/rl_token.h"
#include "../transport/rl_argv.h"
#include "../transport/rl_handshake.h"
#include "../topology/rl_slots.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>

/* SCAN (in the scan script) asks for this many keys a call; Redis may
 * find more (a bucket's chain whole): the script sends SCAN_MOST names a
 * reply, and the rest of the page at the next call. SCAN_MOST names of
 * RL_SCAN_NAME_SHOWN bytes and SCAN_TAIL more fit a lock reply's bounds
 * (rl_reply_guard.h): the connection's bounds are never raised for it. */
#define SCAN_COUNT 48
#define SCAN_MOST 48
#define SCAN_TAIL 64
/* A bit of script_head()'s `with`: a key the script may go without. */
#define WITH(role) (1u << (role))

/* EVAL/EVALSHA <script> <numkeys> <keys...>: the script's KEYS in the order
 * its .lua file names them (rl_script_keys_of()), leaving out each key it
 * may go without unless `with` has its role's bit. */
static void script_head(rl_argv *b, rl_script s, int eval, const rl_lock_op *op, const rl_lock_keys *k, unsigned with)
{
    const rl_script_keys *sk = rl_script_keys_of(s);
    const char *body = eval ? rl_script_source(s) : rl_script_sha(s);
    int i, j, n = 0;
    unsigned char use[6];

    for (i = 0; i < sk->n; i++) {
        use[i] = !(sk->optional & (1u << i)) || (with & WITH(sk->role[i]));
        n += use[i] ? (sk->role[i] == RL_KEY_WAKE ? RL_WAKE_BUCKETS : 1) : 0;
    }
    rl_argv_add(b, eval ? "EVAL" : "EVALSHA", eval ? 4 : 7);
    rl_argv_add(b, body, strlen(body));
    rl_argv_add_num(b, n);
    for (i = 0; i < sk->n; i++) {
        if (!use[i]) {
            continue;
        }
        if (sk->role[i] == RL_KEY_LOCK) {
            rl_argv_add(b, op->key, op->key_len);
        } else if (sk->role[i] == RL_KEY_OWN_WAKE) {
            j = RL_KEY_SLOT(RL_KEY_WAKE) + rl_wake_bucket(op->waiter, op->waiter_len);
            rl_argv_add(b, k->buf[j], k->len[j]);
        } else if (sk->role[i] == RL_KEY_WAKE) {
            for (j = 0; j < RL_WAKE_BUCKETS; j++) {
                rl_argv_add(b, k->buf[RL_KEY_SLOT(RL_KEY_WAKE) + j], k->len[RL_KEY_SLOT(RL_KEY_WAKE) + j]);
            }
        } else {
            rl_argv_add(b, k->buf[RL_KEY_SLOT(sk->role[i])], k->len[RL_KEY_SLOT(sk->role[i])]);
        }
    }
}

/* XREAD COUNT <count> BLOCK <op->wait_ms> STREAMS: the streams follow. */
static void xread_head(rl_argv *b, const rl_lock_op *op, const char *count)
{
    rl_argv_add(b, "XREAD", 5);
    rl_argv_add(b, "COUNT", 5);
    rl_argv_add_str(b, count);
    rl_argv_add(b, "BLOCK", 5);
    rl_argv_add_num(b, op->wait_ms > 0 ? op->wait_ms : 1); /* BLOCK 0 would block for ever */
    rl_argv_add(b, "STREAMS", 7);
}

/* XREAD COUNT 64 BLOCK <ms> STREAMS <base>\0w <last entry seen> */
static int append_wake_wait(rl_conn *c, const rl_lock_op *op, const rl_lock_keys *k, int64_t now_us)
{
    rl_argv b = {.argc = 0};
    const char *from;
    xread_head(&b, op, "64");
    int w = RL_KEY_SLOT(RL_KEY_WAKE) + rl_wake_bucket(op->waiter, op->waiter_len);
    rl_argv_add(&b, k->buf[w], k->len[w]);
    if ((from = rl_wake_cursor(c, op->waiter, op->waiter_len)) != NULL) {
        rl_argv_add_str(&b, from);
    } else {
        rl_argv_add(&b, "0-0", 3); /* from the start: entries before our first look count */
    }
    return rl_argv_append(c, &b, now_us);
}

/* The acquire scripts' last argument, left out when empty: 's' promotes a
 * shared lock (the shared holders' key is passed), 'h' keeps the number of
 * a fenced lock the caller holds already, 'w' (a waiter that queues, or
 * whose deadlock detection wants the holder at every look) the last key is
 * its wake stream, whose last entry id it gets back with the holder, 'g' a
 * stampede guard's waiter (a look that finds it off the queue is done),
 * 'n' the token's own lock counts as held (op->refuse_own). */
static void append_acquire_flags(rl_argv *b, const rl_lock_op *op)
{
    static const char *const flags[32] = {"",     "s",   "h",    "sh",   "w",    "sw",   "hw",   "shw", "g",
                                          "sg",   "hg",  "shg",  "wg",   "swg",  "hwg",  "shwg", "n",   "sn",
                                          "hn",   "shn", "wn",   "swn",  "hwn",  "shwn", "gn",   "sgn", "hgn",
                                          "shgn", "wgn", "swgn", "hwgn", "shwgn"}; /* literals: not copied */
    int wait = op->kind == RL_OP_LOCK_WAIT;
    int f = (op->promote ? 1 : 0) | (op->fencing && op->held ? 2 : 0) | (wait && (op->enqueue || op->deadlock) ? 4 : 0)
            | (wait && op->guard ? 8 : 0) | (op->refuse_own ? 16 : 0);
    if (f != 0) {
        rl_argv_add_str(b, flags[f]);
    }
}

/* A shared lock's or a permit's acquire script; a LOCK is one try (never
 * queued), the op's token standing in for the waiter id it needs. */
static void append_acquire_other(rl_argv *b, const rl_lock_op *op, int eval, const rl_lock_keys *k)
{
    int wait = op->kind == RL_OP_LOCK_WAIT;
    if (op->mode == RL_MODE_SHARED) {
        script_head(b, RL_SCRIPT_ACQUIRE_SHARED, eval, op, k, 0);
    } else {
        script_head(b, RL_SCRIPT_ACQUIRE_PERMIT, eval, op, k, 0);
    }
    rl_argv_add(b, op->token, op->token_len);
    rl_argv_add_num(b, op->ttl_ms);
    if (wait) {
        rl_argv_add(b, op->waiter, op->waiter_len);
    } else {
        rl_argv_add(b, op->token, op->token_len);
    }
    rl_argv_add_num(b, wait ? op->wait_ms : 0);
    rl_argv_add(b, wait && op->enqueue ? "1" : "0", 1);
    if (op->mode == RL_MODE_PERMIT) {
        rl_argv_add_num(b, op->limit);
    }
}

int rl_lock_op_append(rl_conn *c, const rl_lock_op *op, rl_send_form form, int64_t now_us)
{
    int eval = (form == RL_FORM_EVAL || form == RL_FORM_RETRY_EVAL), rc;
    rl_argv b = {.argc = 0};
    rl_lock_keys k;
    int derived = (op->kind == RL_OP_UNLOCK && !op->one_key) || op->kind == RL_OP_LOCK_WAIT || op->kind == RL_OP_LEAVE
                  || op->kind == RL_OP_WAKE_WAIT || op->kind == RL_OP_FENCE_RAISE || op->kind == RL_OP_INSPECT
                  || op->kind == RL_OP_WATCH || op->kind == RL_OP_WAKE
                  || ((op->kind == RL_OP_EXTEND || op->kind == RL_OP_HOLDS) && op->mode == RL_MODE_SHARED)
                  || (op->kind == RL_OP_LOCK && (op->fencing || op->promote || op->mode != RL_MODE_EXCLUSIVE));

    if (op->kind == RL_OP_LOCK_MANY || op->kind == RL_OP_UNLOCK_MANY) {
        return rl_many_op_append(c, op, form, now_us);
    }
    if (op->kind == RL_OP_DEADLOCK || op->kind == RL_OP_DEADLOCK_DROP || op->kind == RL_OP_DEADLOCK_PART) {
        return rl_deadlock_op_append(c, op, eval, now_us);
    }
    if (derived && rl_lock_keys_make(&k, op->key, op->key_len) != 0) {
        return RL_E_NOMEM;
    }
    if ((op->kind == RL_OP_LOCK || op->kind == RL_OP_LOCK_WAIT) && op->mode != RL_MODE_EXCLUSIVE) {
        append_acquire_other(&b, op, eval, &k);
    } else
        switch (op->kind) {
        case RL_OP_LOCK:
            if (op->promote) { /* a caller's token: its shared lock may become a lock */
                script_head(&b, RL_SCRIPT_ACQUIRE, eval, op, &k,
                            WITH(RL_KEY_SHARED) | (op->fencing ? WITH(RL_KEY_FENCE) : 0));
                rl_argv_add(&b, op->token, op->token_len);
                rl_argv_add_num(&b, op->ttl_ms);
                append_acquire_flags(&b, op);
                break;
            }
            if (op->fencing) { /* SET NX cannot count: the acquire script in every form */
                script_head(&b, RL_SCRIPT_ACQUIRE, eval, op, &k, WITH(RL_KEY_FENCE));
                rl_argv_add(&b, op->token, op->token_len);
                rl_argv_add_num(&b, op->ttl_ms);
                append_acquire_flags(&b, op);
                break;
            }
            if (form == RL_FORM_FIRST && !rl_caps_cannot_release(&c->caps)) {
                rl_argv_add(&b, "SET", 3);
                rl_argv_add(&b, op->key, op->key_len);
                rl_argv_add(&b, op->token, op->token_len);
                rl_argv_add(&b, "NX", 2);
                rl_argv_add(&b, "PX", 2);
                rl_argv_add_num(&b, op->ttl_ms);
                break;
            }
            /* a retry after a lost connection, or a server where a lock
         * could not be released (its refusal is the answer, before any
         * key is set): our own token counts as ours,
         * unless the token's own lock is held (refuse_own: the caller's
         * token may be held elsewhere; at worst our own SET that landed
         * is lost to its TTL, never a lock had twice) */
            script_head(&b, RL_SCRIPT_ACQUIRE, eval, op, NULL, 0);
            rl_argv_add(&b, op->token, op->token_len);
            rl_argv_add_num(&b, op->ttl_ms);
            append_acquire_flags(&b, op);
            break;
        case RL_OP_UNLOCK:
            if (op->one_key) {
                script_head(&b, RL_SCRIPT_RELEASE_ONE_KEY, eval, op, NULL, 0);
            } else {
                script_head(&b, RL_SCRIPT_RELEASE, eval, op, &k, 0);
            }
            rl_argv_add(&b, op->token, op->token_len);
            if (op->force || (op->done && !op->one_key)) {
                rl_argv_add(&b, op->force ? "1" : "0", 1);
            }
            if (op->done && !op->one_key) { /* the lock key alone wakes nobody */
                rl_argv_add(&b, "d", 1);
                if (op->value != NULL && op->value_len <= RL_ONCE_VALUE_MAX) {
                    rl_argv_add(&b, op->value, op->value_len);
                }
            }
            break;
        case RL_OP_WAKE:
            script_head(&b, RL_SCRIPT_WAKE, eval, op, &k, 0);
            break;
        case RL_OP_INSPECT:
            script_head(&b, RL_SCRIPT_INSPECT, eval, op, &k, 0);
            rl_argv_add_num(&b, RL_NAMED_TOKEN_MAX); /* a longer value names nobody: not sent back */
            break;
        case RL_OP_WATCH: { /* XREAD COUNT 1 BLOCK <ms> STREAMS <every wake stream> $... */
            int j;
            xread_head(&b, op, "1");
            for (j = 0; j < RL_WAKE_BUCKETS; j++) {
                rl_argv_add(&b, k.buf[RL_KEY_SLOT(RL_KEY_WAKE) + j], k.len[RL_KEY_SLOT(RL_KEY_WAKE) + j]);
            }
            for (j = 0; j < RL_WAKE_BUCKETS; j++) {
                rl_argv_add(&b, "$", 1);
            }
            break;
        }
        case RL_OP_SCAN:
            script_head(&b, RL_SCRIPT_SCAN, eval, op, NULL, 0);
            rl_argv_add_str(&b, op->cursor != NULL ? op->cursor : "0");
            rl_argv_add_str(&b, op->match != NULL ? op->match : "*");
            rl_argv_add_num(&b, SCAN_COUNT);
            rl_argv_add_str(&b, op->after != NULL ? op->after : "");
            rl_argv_add_num(&b, (long long)op->name_at);
            rl_argv_add_num(&b, RL_SCAN_NAME_SHOWN);
            rl_argv_add_num(&b, SCAN_MOST);
            rl_argv_add_num(&b, SCAN_TAIL);
            break;
        case RL_OP_HOLDS:
            script_head(&b, RL_SCRIPT_HOLDS, eval, op, &k, op->mode == RL_MODE_SHARED ? WITH(RL_KEY_SHARED) : 0);
            rl_argv_add(&b, op->token, op->token_len);
            break;
        case RL_OP_EXTEND:
            script_head(&b, RL_SCRIPT_EXTEND, eval, op, &k, op->mode == RL_MODE_SHARED ? WITH(RL_KEY_SHARED) : 0);
            rl_argv_add(&b, op->token, op->token_len);
            rl_argv_add_num(&b, op->ttl_ms);
            break;
        case RL_OP_LOCK_WAIT:
            script_head(&b, RL_SCRIPT_ACQUIRE_WAIT, eval, op, &k,
                        (op->fencing ? WITH(RL_KEY_FENCE) : 0) | (op->promote ? WITH(RL_KEY_SHARED) : 0)
                            | (op->enqueue || op->deadlock ? WITH(RL_KEY_OWN_WAKE)
                                                           : 0)); /* 'w': the reply names the holder too */
            rl_argv_add(&b, op->token, op->token_len);
            rl_argv_add_num(&b, op->ttl_ms);
            rl_argv_add(&b, op->waiter, op->waiter_len);
            rl_argv_add_num(&b, op->wait_ms);
            rl_argv_add(&b, op->enqueue ? "1" : "0", 1);
            append_acquire_flags(&b, op);
            break;
        case RL_OP_LEAVE:
            /* sent without waiting for the reply, so no NOSCRIPT fallback: EVAL */
            script_head(&b, RL_SCRIPT_LEAVE, 1, op, &k, 0);
            rl_argv_add(&b, op->waiter, op->waiter_len);
            break;
        case RL_OP_FENCE_RAISE:
            script_head(&b, RL_SCRIPT_FENCE_RAISE, eval, op, &k, 0);
            rl_argv_add_num(&b, op->fence);
            break;
        case RL_OP_WAKE_WAIT:
            rc = append_wake_wait(c, op, &k, now_us);
            rl_lock_keys_free(&k);
            return rc;
        case RL_OP_LOCK_MANY:
        case RL_OP_UNLOCK_MANY:
        case RL_OP_DEADLOCK:
        case RL_OP_DEADLOCK_DROP:
        case RL_OP_DEADLOCK_PART: /* written above */
            return RL_E_PROTOCOL;
        }
    rc = rl_argv_append(c, &b, now_us);
    if (derived) {
        rl_lock_keys_free(&k);
    }
    return rc;
}

/* Every command that grants or prolongs a hold: a lock of any mode, one
 * woken waiter's take, an extend, and lockMany()'s script (its keys were
 * granted without WAIT until 0.3.2: a failover could lose them). */
int rl_op_wants_ack(const rl_lock_op *op)
{
    return op->min_replicas > 0
           && (op->kind == RL_OP_LOCK || op->kind == RL_OP_LOCK_WAIT || op->kind == RL_OP_EXTEND
               || op->kind == RL_OP_LOCK_MANY);
}

int rl_ack_append(rl_conn *c, const rl_lock_op *op, int64_t now_us)
{
    rl_argv b = {.argc = 0};
    rl_argv_add(&b, "WAIT", 4);
    rl_argv_add_num(&b, op->min_replicas);
    rl_argv_add_num(&b, op->replica_timeout_ms > 0 ? op->replica_timeout_ms : 1);
    return rl_argv_append(c, &b, now_us);
}

int rl_ack_judge(const rl_lock_op *op, const void *r, char *err, size_t errlen)
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

static int is_bulk(const redisReply *r)
{
    return r->type == REDIS_REPLY_STRING;
}

/* Whether the ','-separated ids of a done entry ("d") hold waiter. */
static int names_waiter(const char *ids, size_t len, const char *waiter, size_t waiter_len)
{
    size_t at = 0;
    while (at + waiter_len <= len) {
        const char *comma = memchr(ids + at, ',', len - at);
        size_t end = comma != NULL ? (size_t)(comma - ids) : len;
        if (end - at == waiter_len && memcmp(ids + at, waiter, waiter_len) == 0) {
            return 1;
        }
        at = end + 1;
    }
    return 0;
}

/* XREAD's reply: [[stream, [[id, [field, value, ...]], ...]]]. Yes when an
 * entry names op->waiter as the one woken ("w"), or among those woken as
 * done ("d": *value RL_WAKE_DONE for a guard's waiter, and *gift the
 * entry's "v", the holder's result, when it has one); one that names it
 * next in line ("n") sets *value to RL_WAKE_NEXT; text gets the last entry's
 * id (where the next XREAD starts); a reply about another stream is a no
 * with text "". Malformed: RL_REPLY_ERROR with the reason in err. */
static int judge_wake(const rl_lock_op *op, const redisReply *reply, long long *value, const redisReply **gift,
                      char *text, size_t textlen, char *err, size_t errlen)
{
    const redisReply *stream, *entries;
    const char *last = NULL;
    size_t i, j, last_len = 0;
    int yes = 0, ours;
    rl_lock_keys k;

    *gift = NULL;
    if (reply->elements != 1 || reply->element[0]->type != REDIS_REPLY_ARRAY
        || (stream = reply->element[0])->elements != 2 || !is_bulk(stream->element[0])
        || stream->element[1]->type != REDIS_REPLY_ARRAY) {
        snprintf(err, errlen, "malformed XREAD reply");
        return RL_REPLY_ERROR;
    }
    if (rl_lock_keys_make(&k, op->key, op->key_len) != 0) {
        snprintf(err, errlen, "out of memory");
        return RL_REPLY_ERROR;
    }
    i = RL_KEY_SLOT(RL_KEY_WAKE) + rl_wake_bucket(op->waiter, op->waiter_len);
    ours = stream->element[0]->len == k.len[i] && memcmp(stream->element[0]->str, k.buf[i], k.len[i]) == 0;
    rl_lock_keys_free(&k);
    if (!ours) { /* another lock's stream (a late reply to an earlier wait on this connection) */
        text[0] = '\0';
        return RL_REPLY_NO;
    }
    entries = stream->element[1];
    for (i = 0; i < entries->elements; i++) {
        const redisReply *e = entries->element[i], *fields, *result = NULL;
        int done = 0;
        if (e->type != REDIS_REPLY_ARRAY || e->elements != 2 || !is_bulk(e->element[0]) || e->element[0]->len == 0
            || e->element[0]->len >= RL_WAKE_ID_MAX || (fields = e->element[1])->type != REDIS_REPLY_ARRAY
            || fields->elements % 2 != 0) {
            snprintf(err, errlen, "malformed XREAD entry");
            return RL_REPLY_ERROR;
        }
        last = e->element[0]->str;
        last_len = e->element[0]->len;
        for (j = 0; j + 1 < fields->elements; j += 2) {
            const redisReply *f = fields->element[j], *v = fields->element[j + 1];
            if (!is_bulk(f) || !is_bulk(v)) {
                snprintf(err, errlen, "malformed XREAD entry");
                return RL_REPLY_ERROR;
            }
            if (f->len == 1 && f->str[0] == 'd' && names_waiter(v->str, v->len, op->waiter, op->waiter_len)) {
                yes = done = 1; /* every waiter woken: the holder's work is done */
                if (op->guard) {
                    *value = RL_WAKE_DONE;
                }
            } else if (f->len == 1 && f->str[0] == 'v') {
                result = v;
            } else if (f->len == 1 && (f->str[0] == 'w' || f->str[0] == 'n') && v->len == op->waiter_len
                       && memcmp(v->str, op->waiter, op->waiter_len) == 0) {
                if (f->str[0] == 'w') {
                    yes = 1;
                } else if (*value != RL_WAKE_DONE) {
                    *value = RL_WAKE_NEXT; /* next in line: look again when the woken one's reservation ends */
                }
            }
        }
        if (done && op->guard && result != NULL && *gift == NULL && result->len <= RL_ONCE_VALUE_MAX) {
            *gift = result;
        }
    }
    if (last == NULL) {
        snprintf(err, errlen, "malformed XREAD reply");
        return RL_REPLY_ERROR;
    }
    snprintf(text, textlen, "%.*s", (int)last_len, last);
    return yes ? RL_REPLY_YES : RL_REPLY_NO;
}

/* ACQUIRE_WAIT's reply when it queued the waiter: {PTTL, the last entry
 * id of its wake stream, the holder's token}: a no with the PTTL in
 * out->value and "ID HOLDER" in out->text (rl_queued_parse()): where the
 * waiter's first XREAD starts (rl_wait.c), and whom it waits for. */
static int judge_queued(const redisReply *reply, rl_result *out, char *err, size_t errlen)
{
    if (reply->elements != 3 || reply->element[0]->type != REDIS_REPLY_INTEGER
        || rl_queued_format(reply->element[1], reply->element[2], out->text, sizeof out->text) != 0) {
        snprintf(err, errlen, "malformed reply to the acquire script");
        return RL_REPLY_ERROR;
    }
    out->value = reply->element[0]->integer;
    return RL_REPLY_NO;
}

/* WAKE_WAIT's reply judged for the fan-out: the last entry's id (in text)
 * becomes the waiter's cursor on c, where its next XREAD begins; a done
 * wake's result is kept on c for the waiter (rl_wake_result_take). */
static int judge_wake_on(const rl_lock_op *op, rl_conn *c, const redisReply *reply, rl_result *out, char *err,
                         size_t errlen)
{
    const redisReply *gift;
    int verdict = judge_wake(op, reply, &out->value, &gift, out->text, sizeof out->text, err, errlen);
    if (verdict == RL_REPLY_YES || verdict == RL_REPLY_NO) {
        if (out->text[0]) {
            rl_wake_cursor_set(c, op->waiter, op->waiter_len, out->text);
        }
        out->text[0] = '\0'; /* kept on c: nobody else reads it */
    }
    if (verdict == RL_REPLY_YES && gift != NULL) {
        rl_wake_result_set(c, op->waiter, op->waiter_len, gift->str, gift->len);
    }
    return verdict;
}

/* A refusal of scripts told: the server's words up to their echo of the
 * arguments (a key, a token), then what was left behind (more), then the
 * hint; the words are cut, never the hint. */
static void refused_scripts(const char *words, size_t len, const char *more, char *err, size_t errlen)
{
    size_t shown = rl_caps_refusal_shown(words, len);
    size_t tail = strlen(more) + sizeof RL_SCRIPTS_REFUSED_HINT;
    size_t room = errlen > tail ? errlen - tail : 0;
    snprintf(err, errlen, "%.*s%s" RL_SCRIPTS_REFUSED_HINT, (int)(shown < room ? shown : room), words, more);
}

int rl_lock_op_judge(const rl_lock_op *op, rl_conn *c, const void *r, rl_result *out, char *err, size_t errlen)
{
    const redisReply *reply = r;
    long long *value = &out->value;

    *value = 0;
    out->text[0] = '\0';
    if ((op->kind == RL_OP_LOCK_MANY || op->kind == RL_OP_UNLOCK_MANY) && reply->type != REDIS_REPLY_ERROR) {
        return rl_many_op_judge(op, reply, out, err, errlen);
    }
    if ((op->kind == RL_OP_DEADLOCK || op->kind == RL_OP_DEADLOCK_DROP || op->kind == RL_OP_DEADLOCK_PART)
        && reply->type != REDIS_REPLY_ERROR) {
        return rl_deadlock_op_judge(op, reply, value, err, errlen);
    }
    switch (reply->type) {
    case REDIS_REPLY_ERROR:
        snprintf(err, errlen, "%.*s", (int)reply->len, reply->str);
        if (strncmp(reply->str, "NOSCRIPT", 8) == 0) {
            return RL_REPLY_NOSCRIPT;
        }
        if (op->kind == RL_OP_UNLOCK && op->plain && c != NULL && rl_native_refused(c, reply->str, reply->len)) {
            return RL_REPLY_NOSCRIPT; /* the release script instead (rl_native.h) */
        }
        if (op->kind == RL_OP_LOCK_MANY && c != NULL && c->caps.msetex == 1
            && !op->by_slot /* (a Cluster's: the script) */
            && (strncmp(reply->str, "NOPERM", 6) == 0 || strncmp(reply->str, "ERR unknown command", 19) == 0)) {
            c->caps.msetex = 0; /* MSETEX refused (an ACL): the script form, now and from now on */
            return RL_REPLY_NOSCRIPT;
        }
        if (rl_caps_scripts_refused(reply->str, reply->len)) {
            refused_scripts(reply->str, reply->len, "", err, errlen);
        }
        return rl_reply_wants_login(reply, err, errlen) ? RL_REPLY_NOAUTH : RL_REPLY_ERROR;
    case REDIS_REPLY_STATUS: /* SET NX: +OK; a guard's look: +DONE */
        if (op->kind == RL_OP_LOCK && strcmp(reply->str, "OK") == 0) {
            if (c != NULL && rl_caps_cannot_release(&c->caps)) {
                /* a fresh connection's SET went out with the probes: taken
                 * before the server's refusal of scripts was read */
                refused_scripts(c->caps.scripts_refusal, strlen(c->caps.scripts_refusal), RL_SCRIPTS_REFUSED_TAKEN, err,
                                errlen);
                return RL_REPLY_INVALID; /* the stream is in step: the connection stays, and knows */
            }
            return RL_REPLY_YES;
        }
        if (op->kind == RL_OP_LOCK_WAIT && op->guard && strcmp(reply->str, "DONE") == 0) {
            *value = RL_PTTL_DONE;
            return RL_REPLY_NO;
        }
        break;
    case REDIS_REPLY_NIL: /* SET NX: held by someone; XREAD: not woken in time */
        if (op->kind == RL_OP_LOCK || op->kind == RL_OP_WAKE_WAIT || op->kind == RL_OP_WATCH) {
            return RL_REPLY_NO;
        }
        break;
    case REDIS_REPLY_ARRAY: /* XREAD: releases happened; a waiter queued */
        if (op->kind == RL_OP_LOCK_WAIT && op->mode == RL_MODE_EXCLUSIVE) {
            return judge_queued(reply, out, err, errlen);
        }
        if (op->kind == RL_OP_INSPECT) {
            return rl_judge_inspect(op, reply, out, err, errlen);
        }
        if (op->kind == RL_OP_SCAN) {
            return rl_judge_scan(op, reply, out, err, errlen);
        }
        if (op->kind == RL_OP_WATCH) {
            return RL_REPLY_YES; /* entries on some wake stream: a release woke someone */
        }
        if (op->kind == RL_OP_WAKE_WAIT) {
            const redisReply *gift;
            return c != NULL ? judge_wake_on(op, c, reply, out, err, errlen)
                             : judge_wake(op, reply, value, &gift, out->text, sizeof out->text, err, errlen);
        }
        break;
    case REDIS_REPLY_INTEGER: /* scripts */
        *value = reply->integer;
        if (op->kind == RL_OP_LOCK_WAIT || (op->kind == RL_OP_LOCK && op->mode != RL_MODE_EXCLUSIVE)) {
            if (reply->integer <= -3) {
                *value = -3 - reply->integer; /* the fence number, 0 without fencing */
                return RL_REPLY_YES;
            }
            return RL_REPLY_NO;
        }
        if (op->kind == RL_OP_LOCK && op->fencing) {
            return reply->integer >= 1 ? RL_REPLY_YES : RL_REPLY_NO;
        }
        return reply->integer == 1 ? RL_REPLY_YES : RL_REPLY_NO;
    }
    snprintf(err, errlen, "unexpected reply of type %d", reply->type);
    return RL_REPLY_ERROR;
}

static int undo_write(void *ctx, rl_conn *c, const char *key, size_t key_len, const char *token, size_t token_len)
{
    rl_lock_op op = {.kind = RL_OP_UNLOCK, .key = key, .key_len = key_len, .token = token, .token_len = token_len};
    return rl_lock_op_append(c, &op, RL_FORM_EVAL, *(const int64_t *)ctx);
}

int rl_undos_append(rl_conn *c, int64_t now_us)
{
    return rl_undos_drain(c, undo_write, &now_us);
}

/* The lock op an engine op carries, with what topology changed on the
 * engine op when it sent it again: a copy only then. */
static const rl_lock_op *lock_args(const rl_op *e, rl_lock_op *copy)
{
    const rl_lock_op *op = e->args;
    int by_slot = (e->flags & RL_ROUTE_SLOTS) != 0;
    if ((e->repeat && !op->repeat) || (e->narrow && !op->one_key) || (e->block_ms > 0 && e->block_ms != op->wait_ms)
        || (by_slot && !op->by_slot)) {
        *copy = *op;
        copy->repeat |= e->repeat;
        copy->one_key |= e->narrow;
        copy->by_slot |= by_slot;
        if (e->block_ms > 0) {
            copy->wait_ms = e->block_ms;
        }
        return copy;
    }
    return op;
}

static int family_append(rl_conn *c, const rl_op *e, rl_send_form form, int64_t now_us)
{
    rl_lock_op copy;
    const rl_lock_op *op = lock_args(e, &copy);

    /* releases owed from a timed-out lock go first; nobody waits for their replies */
    rl_conn_owe_discards(c, rl_undos_append(c, now_us));
    if (e->prefix != NULL) { /* right before the command it is for */
        int n = e->prefix(c, now_us);
        if (n < 0) {
            return -1;
        }
        rl_conn_owe_discards(c, (size_t)n);
    }
    if (rl_native_release_fits(c, op, form, e->prefix != NULL)) {
        return rl_native_release_append(c, op, now_us) != 0 ? -1 : 1; /* EXISTS's reply trails */
    }
    if (rl_lock_op_append(c, op, form, now_us) != 0) {
        return -1;
    }
    if (!rl_op_wants_ack(op)) {
        return 0;
    }
    return rl_ack_append(c, op, now_us) != 0 ? -1 : 1; /* WAIT's reply trails the command's */
}

static int family_judge(const rl_op *e, rl_conn *c, const void *reply, rl_result *out, char *err, size_t errlen)
{
    rl_lock_op copy;
    return rl_lock_op_judge(lock_args(e, &copy), c, reply, out, err, errlen);
}

static int family_judge_trail(const rl_op *e, const void *reply, rl_result *out, char *err, size_t errlen)
{
    rl_lock_op copy;
    const rl_lock_op *op = lock_args(e, &copy);
    if (op->kind == RL_OP_UNLOCK) { /* a release trails only a native one's EXISTS (never a WAIT) */
        return rl_native_judge_queue(reply, out);
    }
    return rl_ack_judge(op, reply, err, errlen);
}

static int64_t family_on_timeout(const rl_op *e, rl_conn *c, int sent, int64_t usual_us)
{
    rl_lock_op copy;
    const rl_lock_op *op = lock_args(e, &copy);

    if (sent && (op->kind == RL_OP_LOCK || op->kind == RL_OP_LOCK_WAIT) && !op->refuse_own) {
        /* the node may still run our SET when it wakes up: take it back
         * then (not a caller's token whose own lock counts as held: the
         * lock of that name may be another process's) */
        rl_undo_defer(c, op->key, op->key_len, op->token, op->token_len);
    }
    /* a caller's token (op->repeat) may hold some of them from before: not taken back */
    for (size_t i = 0; sent && op->kind == RL_OP_LOCK_MANY && !op->repeat && i < op->nkeys; i++) {
        rl_undo_defer(c, op->keys[i], op->key_lens[i], op->token, op->token_len);
    }
    /* a blocking read's reply time holds its block (a waiter's, watch()'s,
     * up to an hour): benched the least then */
    return op->kind == RL_OP_WAKE_WAIT || op->kind == RL_OP_WATCH ? 1000000 : usual_us;
}

/* An earlier wait's reply read on a wake wait's connection: a wake naming
 * the waiter counts now (and moves its cursor on, as any XREAD reply does). */
static int family_on_stale_reply(const rl_op *e, rl_conn *c, const void *reply, rl_result *out)
{
    rl_lock_op copy;
    char why[RL_ERRLEN];

    if (e->kind != RL_OP_WAKE_WAIT || ((const redisReply *)reply)->type != REDIS_REPLY_ARRAY) {
        return 0;
    }
    /* a yes's value: RL_WAKE_DONE when a guard's wait is over */
    return rl_lock_op_judge(lock_args(e, &copy), c, reply, out, why, sizeof why) == RL_REPLY_YES;
}

const rl_family rl_lock_family = {
    .name = "lock",
    .append = family_append,
    .judge = family_judge,
    .judge_trail = family_judge_trail,
    .on_timeout = family_on_timeout,
    .on_stale_reply = family_on_stale_reply,
};
