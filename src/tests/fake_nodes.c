/* The scripted node set of the protocol's unit tests (fake_nodes.h). */
#include <string.h>
#include "fake_nodes.h"
#include "unit.h"
#include "../base/rl_status.h"

int64_t fake_now_us;
static fake_nodes *current; /* fanout and the clock have no context: the set being run */

static int64_t fake_clock(void)
{
    return fake_now_us;
}

static void fake_sleep_until(int64_t until_us)
{
    if (current->nsleeps < FAKE_MAX_CALLS) {
        current->slept_until[current->nsleeps++] = until_us;
    }
    if (until_us > fake_now_us) {
        fake_now_us = until_us;
    }
}

static size_t node_of(fake_nodes *f, const rl_conn *c)
{
    size_t i;
    for (i = 0; i < f->ns.n; i++) {
        if (c == &f->conns[i]) {
            return i;
        }
        if (c == &f->wait_conns[i]) {
            return 100 + i;
        }
    }
    return 999;
}

static void vote(rl_vote *v, char letter, long long value)
{
    v->err.code = RL_OK;
    v->yes = 0;
    v->sent = 1;
    v->value = value;
    v->one_key = 0;
    v->err.msg[0] = '\0';
    switch (letter) {
    case 'y':
        v->yes = 1;
        break;
    case 'n':
        break;
    case 'f':
        v->err.code = RL_E_TIMEOUT;
        break;
    case 'c':
        v->err.code = RL_E_CONNECT;
        v->sent = 0;
        break;
    case 's':
        v->err.code = RL_E_SKIPPED;
        break;
    case 'e':
        v->err.code = RL_E_REPLY;
        break;
    case 'r':
        v->err.code = RL_E_REPLICAS;
        break;
    case 'k':
        v->yes = 1;
        v->one_key = 1;
        break;
    }
}

/* Records the call and answers it from the script. */
static size_t answer(fake_nodes *f, const rl_lock_op *op, rl_vote *votes, size_t n, size_t need, int early, int fanout,
                     const rl_timeouts *t)
{
    const fake_reply *reply = f->next < f->nscript ? &f->script[f->next] : NULL;
    fake_call *c = f->ncalls < FAKE_MAX_CALLS ? &f->calls[f->ncalls++] : NULL;
    size_t i, yes = 0;

    CHECK(reply != NULL, "call %zu (op kind %d) is past the script", f->next, (int)op->kind);
    CHECK(reply == NULL || strlen(reply->votes) == n, "call %zu: %zu nodes asked, the script has '%s'", f->next, n,
          reply ? reply->votes : "");
    f->next++;
    if (c != NULL) {
        memset(c, 0, sizeof *c);
        c->op = *op;
        c->fanout = fanout;
        c->n = n;
        c->need = need;
        c->early = early;
        c->at_us = fake_now_us;
        c->timeouts = t != NULL ? *t : f->ns.timeouts;
        snprintf(c->token, sizeof c->token, "%.*s", op->token ? (int)op->token_len : 0, op->token ? op->token : "");
        snprintf(c->waiter, sizeof c->waiter, "%.*s", op->waiter ? (int)op->waiter_len : 0,
                 op->waiter ? op->waiter : "");
        for (i = 0; i < n && i < FAKE_MAX_NODES; i++) {
            c->node[i] = node_of(f, votes[i].conn);
        }
    }
    for (i = 0; i < n; i++) {
        char letter = reply != NULL && i < strlen(reply->votes) ? reply->votes[i] : 'n';
        vote(&votes[i], letter, reply != NULL && i < FAKE_MAX_NODES ? reply->value[i] : 0);
        yes += votes[i].yes;
    }
    if (reply != NULL) {
        fake_now_us += reply->advance_us;
        if (reply->block && t != NULL && t->stop_at_us > fake_now_us) {
            fake_now_us = t->stop_at_us;
        }
    }
    return yes;
}

static size_t fake_run(void *ctx, const rl_lock_op *op, rl_vote *votes, size_t need, int early)
{
    fake_nodes *f = ctx;
    size_t i;
    for (i = 0; i < f->ns.n; i++) {
        votes[i].conn = &f->conns[i];
    }
    return answer(f, op, votes, f->ns.n, need, early, 0, NULL);
}

static size_t fake_fanout(const rl_lock_op *op, rl_vote *votes, size_t n, size_t need, int early, const rl_timeouts *t)
{
    return answer(current, op, votes, n, need, early, 1, t);
}

static rl_conn *fake_wait_conn(void *ctx, size_t i, const char *key, size_t key_len)
{
    fake_nodes *f = ctx;
    (void)key;
    (void)key_len;
    return &f->wait_conns[i];
}

/* A wake wait: on the wait connections, recorded as a fan-out. */
static size_t fake_wait(void *ctx, const rl_lock_op *op, rl_vote *votes, const rl_timeouts *t)
{
    fake_nodes *f = ctx;
    size_t i;
    for (i = 0; i < f->ns.n; i++) {
        votes[i].conn = &f->wait_conns[i];
    }
    return answer(f, op, votes, f->ns.n, 1, 1, 1, t);
}

void fake_nodes_init(fake_nodes *f, size_t n, const fake_reply *script, size_t nscript)
{
    size_t i;
    memset(f, 0, sizeof *f);
    for (i = 0; i < n; i++) {
        snprintf(f->conns[i].name, sizeof f->conns[i].name, "node%zu", i);
    }
    f->ns.n = n;
    f->ns.quorum = rl_quorum_of(n);
    f->ns.run = fake_run;
    f->ns.wait_conn = fake_wait_conn;
    f->ns.wait = fake_wait;
    f->ns.ctx = f;
    f->ns.fanout = fake_fanout;
    f->ns.now_us = fake_clock;
    f->ns.sleep_until_us = fake_sleep_until;
    f->ns.timeouts.connect_us = 100000;
    f->ns.timeouts.reply_us = 100000;
    f->ns.drift_factor = 0.01;
    f->ns.redlock = n > 1;
    f->script = script;
    f->nscript = nscript;
    fake_now_us = 1000000;
    current = f;
}

const char *fake_call_nodes(const fake_call *c, char *buf)
{
    size_t i;
    for (i = 0; i < c->n && i < FAKE_MAX_NODES; i++) {
        buf[i] = (char)(c->node[i] >= 100 ? 'a' + (int)(c->node[i] - 100) : '0' + (int)c->node[i]);
    }
    buf[i] = '\0';
    return buf;
}
