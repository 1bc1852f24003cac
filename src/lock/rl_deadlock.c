/* Deadlock detection for waiters (rl_deadlock.h). */
#include "rl_deadlock.h"
#include "rl_hold.h"
#include "rl_scripts.h"
#include "../base/rl_status.h"
#include "../base/rl_token.h"
#include "../transport/rl_argv.h"
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>

/* At most 32 edges come back (the script walks 31 from the holder). */
#define CYCLE_MAX 32

/* The cycle one node told (the first to tell one): its lock keys and
 * tokens, copied. */
typedef struct cycle {
    char *s[2 * CYCLE_MAX];
    size_t len[2 * CYCLE_MAX];
    size_t n;
    int closed; /* a whole list was told: later nodes' are not kept */
    int short_of_memory;
} cycle;

static void cycle_add(void *ctx, const char *s, size_t len)
{
    cycle *c = ctx;
    if (c->closed) {
        return;
    }
    if (s == NULL) { /* the end of one node's list */
        c->closed = c->n > 0;
        return;
    }
    if (c->n == 2 * CYCLE_MAX || (c->s[c->n] = malloc(len + 1)) == NULL) {
        c->short_of_memory = 1; /* a list not whole: not confirmed */
        return;
    }
    memcpy(c->s[c->n], s, len);
    c->s[c->n][len] = '\0';
    c->len[c->n++] = len;
}

static void cycle_free(cycle *c)
{
    while (c->n > 0) {
        free(c->s[--c->n]);
    }
}

/* Is every lock on the cycle still held by its token (a quorum says so)? */
static int all_held(const rl_lock_nodes *ns, const cycle *c)
{
    size_t i;
    if (c->short_of_memory || c->n % 2 != 0) {
        return 0;
    }
    for (i = 0; i + 1 < c->n; i += 2) {
        rl_op op = {.kind = RL_OP_HOLDS, .key = c->s[i], .key_len = c->len[i], .token = c->s[i + 1],
                    .token_len = c->len[i + 1]};
        rl_verdict v;
        int held;
        if (rl_holds_run(ns, &op, &v) != 0) {
            return 0;
        }
        held = v.outcome == RL_WON;
        rl_verdict_free(&v);
        if (!held) {
            return 0;
        }
    }
    return c->n >= 2;
}

int rl_deadlock_check(const rl_lock_nodes *ns, rl_deadlock *d, rl_tally *t, const char *key, size_t key_len,
                      const char *holder, size_t holder_len, long long wait_ms)
{
    char of_holder[RL_PARTY_LEN + 1];
    const char *me = rl_party();
    cycle c = {.n = 0};
    size_t i, yes = 0;
    int found;

    if (me == NULL || !rl_token_party(holder, holder_len, of_holder)) {
        rl_deadlock_end(ns, d, t); /* not one of ours: an edge from before would be stale */
        return 0;
    }
    rl_op op = {.kind = RL_OP_DEADLOCK, .key = d->edges_key, .key_len = d->edges_key_len, .waiter = me,
                .waiter_len = RL_PARTY_LEN, .token = holder, .token_len = holder_len, .waits_for = key,
                .waits_for_len = key_len, .wait_ms = wait_ms > 0 ? wait_ms : 1, .on_key = cycle_add,
                .on_key_ctx = &c};
    ns->run(ns->ctx, &op, t->votes, ns->n, 0);
    for (i = 0; i < ns->n; i++) {
        if (t->votes[i].err.code == RL_OK) {
            yes += t->votes[i].yes;
            d->recorded = d->recorded || !t->votes[i].yes;
        }
    }
    found = yes >= ns->quorum && all_held(ns, &c);
    if (found) {
        d->cycle_n = c.n / 2;
        for (i = 0; i < c.n / 2 && i < RL_DEADLOCK_SHOWN; i++) {
            size_t len = c.len[2 * i] < RL_DEADLOCK_KEY_SHOWN - 1 ? c.len[2 * i] : RL_DEADLOCK_KEY_SHOWN - 1;
            memcpy(d->cycle[i], c.s[2 * i], len);
            d->cycle[i][len] = '\0';
            d->cycle_len[i] = len;
        }
    }
    cycle_free(&c);
    return found;
}

void rl_deadlock_end(const rl_lock_nodes *ns, rl_deadlock *d, rl_tally *t)
{
    const char *me = rl_party();
    if (!d->recorded || me == NULL) {
        return;
    }
    rl_op op = {.kind = RL_OP_DEADLOCK_DROP, .key = d->edges_key, .key_len = d->edges_key_len, .waiter = me,
                .waiter_len = RL_PARTY_LEN};
    ns->run(ns->ctx, &op, t->votes, 0, 1);
    d->recorded = 0;
}

int rl_deadlock_op_append(rl_conn *c, const rl_op *op, int eval, int64_t now_us)
{
    rl_argv b = {.argc = 0};
    if (op->kind == RL_OP_DEADLOCK_DROP) {
        rl_argv_add(&b, "HDEL", 4);
        rl_argv_add(&b, op->key, op->key_len);
        rl_argv_add(&b, op->waiter, op->waiter_len);
        return rl_argv_append(c, &b, now_us);
    }
    const char *body = eval ? rl_script_source(RL_SCRIPT_DEADLOCK) : rl_script_sha(RL_SCRIPT_DEADLOCK);
    rl_argv_add(&b, eval ? "EVAL" : "EVALSHA", eval ? 4 : 7);
    rl_argv_add(&b, body, strlen(body));
    rl_argv_add(&b, "1", 1);
    rl_argv_add(&b, op->key, op->key_len);
    rl_argv_add(&b, op->waiter, op->waiter_len);
    rl_argv_add(&b, op->waits_for, op->waits_for_len);
    rl_argv_add(&b, op->token, op->token_len);
    rl_argv_add_num(&b, op->wait_ms);
    return rl_argv_append(c, &b, now_us);
}

int rl_deadlock_op_judge(const rl_op *op, const void *r, long long *value, char *err, size_t errlen)
{
    const redisReply *reply = r;
    size_t i;
    *value = 0;
    if (reply->type == REDIS_REPLY_INTEGER) {
        /* DEADLOCK: 0, the edge recorded; DEADLOCK_DROP: HDEL's count */
        return op->kind == RL_OP_DEADLOCK_DROP ? RL_REPLY_YES : RL_REPLY_NO;
    }
    if (reply->type == REDIS_REPLY_ARRAY && op->kind == RL_OP_DEADLOCK && reply->elements >= 2
        && reply->elements % 2 == 0) {
        for (i = 0; i < reply->elements; i++) {
            if (reply->element[i]->type != REDIS_REPLY_STRING) {
                snprintf(err, errlen, "malformed reply to the deadlock script");
                return RL_REPLY_ERROR;
            }
        }
        for (i = 0; op->on_key != NULL && i < reply->elements; i++) {
            op->on_key(op->on_key_ctx, reply->element[i]->str, reply->element[i]->len);
        }
        if (op->on_key != NULL) {
            op->on_key(op->on_key_ctx, NULL, 0);
        }
        return RL_REPLY_YES;
    }
    snprintf(err, errlen, "unexpected reply of type %d", reply->type);
    return RL_REPLY_ERROR;
}
