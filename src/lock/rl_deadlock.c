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
 * tokens, copied. A long lock key comes by reference: s[i] NULL, the party
 * whose edge names it in party[i] and its length in len[i], until read. */
typedef struct cycle {
    char *s[2 * CYCLE_MAX];
    size_t len[2 * CYCLE_MAX];
    char party[2 * CYCLE_MAX][RL_PARTY_LEN + 1];
    size_t n;
    int closed; /* a whole list was told: later nodes' are not kept */
    int short_of_memory;
} cycle;

/* A long lock key of the cycle, by its edge's party: read later (read_long()). */
static void cycle_add_ref(cycle *c, const char *party, size_t party_len, size_t len)
{
    if (c->closed) {
        return;
    }
    if (c->n == 2 * CYCLE_MAX || party_len != RL_PARTY_LEN) {
        c->short_of_memory = 1; /* a list not whole: not confirmed */
        return;
    }
    c->s[c->n] = NULL;
    memcpy(c->party[c->n], party, RL_PARTY_LEN);
    c->party[c->n][RL_PARTY_LEN] = '\0';
    c->len[c->n++] = len;
}

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

/* A part of a long lock key, as DEADLOCK_PART's judge tells it: the first
 * node's answer is kept. */
typedef struct part {
    char *buf;
    size_t from, want;
    int got;
} part;

static void part_add(void *ctx, const char *s, size_t len)
{
    part *p = ctx;
    if (!p->got && s != NULL && len == p->want) {
        memcpy(p->buf + p->from, s, len);
        p->got = 1;
    }
}

/* Reads the long lock keys of c: the waiter's own it knows (its edge is not
 * recorded), the others from their edges in parts. 0, or -1 when one could
 * not be read whole (an edge gone meanwhile: the cycle is not confirmed). */
static int read_long(const rl_lock_nodes *ns, rl_tally *t, const char *edges, size_t edges_len, cycle *c,
                     const char *mine, size_t mine_len)
{
    size_t i;
    for (i = 0; i < c->n; i += 2) {
        part p = {.from = 0};
        if (c->s[i] != NULL) {
            continue;
        }
        if ((p.buf = malloc(c->len[i] + 1)) == NULL) {
            return -1;
        }
        c->s[i] = p.buf;
        p.buf[c->len[i]] = '\0';
        if (strcmp(c->party[i], rl_party()) == 0) {
            if (mine_len != c->len[i]) {
                return -1;
            }
            memcpy(p.buf, mine, mine_len);
            continue;
        }
        for (p.from = 0; p.from < c->len[i]; p.from += RL_DEADLOCK_PART) {
            rl_lock_op op = {.kind = RL_OP_DEADLOCK_PART,
                             .key = edges,
                             .key_len = edges_len,
                             .waiter = c->party[i],
                             .waiter_len = RL_PARTY_LEN,
                             .waits_for_len = c->len[i],
                             .part_from = (long long)p.from,
                             .on_key = part_add,
                             .on_key_ctx = &p};
            p.want = c->len[i] - p.from < RL_DEADLOCK_PART ? c->len[i] - p.from : RL_DEADLOCK_PART;
            p.got = 0;
            ns->run(ns->ctx, &op, t->votes, ns->n, 0);
            if (!p.got) {
                return -1;
            }
        }
    }
    return 0;
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
        rl_lock_op op = {.kind = RL_OP_HOLDS,
                         .key = c->s[i],
                         .key_len = c->len[i],
                         .token = c->s[i + 1],
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
    rl_lock_op op = {.kind = RL_OP_DEADLOCK,
                     .key = d->edges_key,
                     .key_len = d->edges_key_len,
                     .waiter = me,
                     .waiter_len = RL_PARTY_LEN,
                     .token = holder,
                     .token_len = holder_len,
                     .waits_for = key,
                     .waits_for_len = key_len,
                     .wait_ms = wait_ms > 0 ? wait_ms : 1,
                     .on_key = cycle_add,
                     .on_key_ctx = &c};
    ns->run(ns->ctx, &op, t->votes, ns->n, 0);
    for (i = 0; i < ns->n; i++) {
        if (t->votes[i].err.code == RL_OK) {
            yes += t->votes[i].yes;
            d->recorded = d->recorded || !t->votes[i].yes;
        }
    }
    found = yes >= ns->quorum && read_long(ns, t, d->edges_key, d->edges_key_len, &c, key, key_len) == 0
            && all_held(ns, &c);
    if (found) {
        d->cycle_n = c.n / 2;
        for (i = 0; i < c.n / 2 && i < RL_DEADLOCK_SHOWN; i++) {
            size_t len = c.len[2 * i] < RL_DEADLOCK_KEY_SHOWN - 1 ? c.len[2 * i] : RL_DEADLOCK_KEY_SHOWN - 1;
            memcpy(d->cycle[i], c.s[2 * i], len);
            d->cycle[i][len] = '\0';
            d->cycle_len[i] = len;
            d->cycle_whole[i] = c.len[2 * i];
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
    rl_lock_op op = {.kind = RL_OP_DEADLOCK_DROP,
                     .key = d->edges_key,
                     .key_len = d->edges_key_len,
                     .waiter = me,
                     .waiter_len = RL_PARTY_LEN};
    ns->run(ns->ctx, &op, t->votes, 0, 1);
    d->recorded = 0;
}

int rl_deadlock_op_append(rl_conn *c, const rl_lock_op *op, int eval, int64_t now_us)
{
    rl_argv b = {.argc = 0};
    if (op->kind == RL_OP_DEADLOCK_DROP) {
        rl_argv_add(&b, "HDEL", 4);
        rl_argv_add(&b, op->key, op->key_len);
        rl_argv_add(&b, op->waiter, op->waiter_len);
        return rl_argv_append(c, &b, now_us);
    }
    rl_script s = op->kind == RL_OP_DEADLOCK_PART ? RL_SCRIPT_DEADLOCK_PART : RL_SCRIPT_DEADLOCK;
    const char *body = eval ? rl_script_source(s) : rl_script_sha(s);
    rl_argv_add(&b, eval ? "EVAL" : "EVALSHA", eval ? 4 : 7);
    rl_argv_add(&b, body, strlen(body));
    rl_argv_add(&b, "1", 1);
    rl_argv_add(&b, op->key, op->key_len);
    rl_argv_add(&b, op->waiter, op->waiter_len);
    if (op->kind == RL_OP_DEADLOCK_PART) {
        rl_argv_add_num(&b, op->part_from);
        rl_argv_add_num(&b, RL_DEADLOCK_PART);
        rl_argv_add_num(&b, (long long)op->waits_for_len);
        return rl_argv_append(c, &b, now_us);
    }
    rl_argv_add(&b, op->waits_for, op->waits_for_len);
    rl_argv_add(&b, op->token, op->token_len);
    rl_argv_add_num(&b, op->wait_ms);
    rl_argv_add_num(&b, RL_DEADLOCK_NAME_SENT);
    return rl_argv_append(c, &b, now_us);
}

/* A long lock key on a cycle, by reference: [party, length]. */
static int is_ref(const redisReply *e)
{
    return e->type == REDIS_REPLY_ARRAY && e->elements == 2 && e->element[0]->type == REDIS_REPLY_STRING
           && e->element[1]->type == REDIS_REPLY_INTEGER && e->element[1]->integer > RL_DEADLOCK_NAME_SENT;
}

int rl_deadlock_op_judge(const rl_lock_op *op, const void *r, long long *value, char *err, size_t errlen)
{
    const redisReply *reply = r;
    size_t i;
    *value = 0;
    if (reply->type == REDIS_REPLY_INTEGER) {
        /* DEADLOCK: 0, the edge recorded; DEADLOCK_DROP: HDEL's count; DEADLOCK_PART: 0, no such edge */
        return op->kind == RL_OP_DEADLOCK_DROP ? RL_REPLY_YES : RL_REPLY_NO;
    }
    if (reply->type == REDIS_REPLY_STRING && op->kind == RL_OP_DEADLOCK_PART) {
        if (op->on_key != NULL) {
            op->on_key(op->on_key_ctx, reply->str, reply->len);
        }
        return RL_REPLY_YES;
    }
    if (reply->type == REDIS_REPLY_ARRAY && op->kind == RL_OP_DEADLOCK && reply->elements >= 2
        && reply->elements % 2 == 0) {
        for (i = 0; i < reply->elements; i++) { /* resources (a long one by reference) and tokens */
            if (reply->element[i]->type != REDIS_REPLY_STRING && (i % 2 != 0 || !is_ref(reply->element[i]))) {
                snprintf(err, errlen, "malformed reply to the deadlock script");
                return RL_REPLY_ERROR;
            }
        }
        for (i = 0; op->on_key != NULL && i < reply->elements; i++) {
            const redisReply *e = reply->element[i];
            if (e->type == REDIS_REPLY_STRING) {
                op->on_key(op->on_key_ctx, e->str, e->len);
            } else if (op->on_key == cycle_add) { /* ours: its reference kept to be read (read_long()) */
                cycle_add_ref(op->on_key_ctx, e->element[0]->str, e->element[0]->len, (size_t)e->element[1]->integer);
            } else {
                op->on_key(op->on_key_ctx, NULL, 0); /* a caller that takes no reference: the list ends here */
            }
        }
        if (op->on_key != NULL) {
            op->on_key(op->on_key_ctx, NULL, 0);
        }
        return RL_REPLY_YES;
    }
    snprintf(err, errlen, "unexpected reply of type %d", reply->type);
    return RL_REPLY_ERROR;
}
