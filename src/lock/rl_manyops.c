/* The commands of several resources at once (rl_manyops.h): the acquire
 * and release scripts of all-or-nothing locks, each resource's keys in
 * turn, and the acquire's reply. */
#include "rl_manyops.h"
#include "rl_lock_keys.h"
#include "rl_lock_state.h"
#include "rl_scripts.h"
#include "rl_queued.h"
#include "../base/rl_status.h"
#include "../topology/rl_slots.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>

/* A command of any length: its arguments point into store (the derived
 * keys) or at the op's own strings; numbers are kept in nums. */
typedef struct many_cmd {
    const char **argv;
    size_t *lens;
    int argc;
    char *store;
    char nums[4][24];
    int nnums;
} many_cmd;

static void add(many_cmd *m, const char *s, size_t len)
{
    m->argv[m->argc] = s;
    m->lens[m->argc++] = len;
}

static void add_num(many_cmd *m, long long v)
{
    char *buf = m->nums[m->nnums++];
    add(m, buf, (size_t)snprintf(buf, sizeof m->nums[0], "%lld", v));
}

/* Each resource's keys by the script's roles: the lock key, then its
 * derived keys (one wake stream, the waiter's, or all of them). */
static int many_keys(many_cmd *m, const rl_lock_op *op, rl_script s)
{
    const rl_script_keys *sk = rl_script_keys_of(s);
    size_t i, total = 0, per = 0, at = 0;
    int r;

    for (r = 1; r < sk->n; r++) {
        per += sk->role[r] == RL_KEY_WAKE ? RL_WAKE_BUCKETS : 1;
    }
    for (i = 0; i < op->nkeys; i++) {
        total += per * (rl_key_derived(op->keys[i], op->key_lens[i], 'q', NULL, 0) + 1);
    }
    if ((m->store = malloc(total > 0 ? total : 1)) == NULL) {
        return RL_E_NOMEM;
    }
    for (i = 0; i < op->nkeys; i++) {
        rl_lock_keys k;
        if (rl_lock_keys_make(&k, op->keys[i], op->key_lens[i]) != 0) {
            return RL_E_NOMEM;
        }
        add(m, op->keys[i], op->key_lens[i]);
        for (r = 1; r < sk->n; r++) {
            int from = sk->role[r] == RL_KEY_OWN_WAKE ? RL_OWN_WAKE(&k, op->waiter, op->waiter_len)
                                                      : RL_KEY_SLOT(sk->role[r]);
            int to = sk->role[r] == RL_KEY_WAKE ? from + RL_WAKE_BUCKETS : from + 1, j;
            for (j = from; j < to; j++) {
                memcpy(m->store + at, k.buf[j], k.len[j] + 1);
                add(m, m->store + at, k.len[j]);
                at += k.len[j] + 1;
            }
        }
        rl_lock_keys_free(&k);
    }
    return 0;
}

static int append_script(rl_conn *c, const rl_lock_op *op, int eval, int64_t now_us);

/* MSETEX numkeys key token ... NX PX ttl: every key or none, the
 * server's own command (Redis 8.4, Valkey 9.1), for a try with a fresh
 * token; its reply is 1 or 0. */
static int append_msetex(rl_conn *c, const rl_lock_op *op, int64_t now_us)
{
    size_t max = 6 + 2 * op->nkeys, i;
    many_cmd m = {.argc = 0};
    int rc = RL_E_NOMEM;

    m.argv = malloc(max * sizeof *m.argv);
    m.lens = malloc(max * sizeof *m.lens);
    if (m.argv != NULL && m.lens != NULL) {
        add(&m, "MSETEX", 6);
        add_num(&m, (long long)op->nkeys);
        for (i = 0; i < op->nkeys; i++) {
            add(&m, op->keys[i], op->key_lens[i]);
            add(&m, op->token, op->token_len);
        }
        add(&m, "NX", 2);
        add(&m, "PX", 2);
        add_num(&m, op->ttl_ms);
        rc = rl_conn_append(c, m.argc, m.argv, m.lens, now_us);
    }
    free(m.argv);
    free(m.lens);
    return rc;
}

int rl_many_op_append(rl_conn *c, const rl_lock_op *op, rl_send_form form, int64_t now_us)
{
    int eval = form == RL_FORM_EVAL || form == RL_FORM_RETRY_EVAL;
    /* not on a Cluster: Valkey 9.1 does not redirect MSETEX. A node that
     * does not serve the keys' slot (a stale map; a write held by an
     * atomic slot migration's pause, run after the handoff) sets them
     * there and answers 1, where SET or a script's keys get MOVED: a lock
     * the slot's master never sees, which a second holder takes there */
    if (op->kind == RL_OP_LOCK_MANY && form == RL_FORM_FIRST && op->waiter == NULL && c->caps.msetex == 1
        && !op->by_slot) {
        return append_msetex(c, op, now_us);
    }
    return append_script(c, op, eval, now_us);
}

static int append_script(rl_conn *c, const rl_lock_op *op, int eval, int64_t now_us)
{
    rl_script s = op->kind == RL_OP_LOCK_MANY ? RL_SCRIPT_ACQUIRE_MANY : RL_SCRIPT_RELEASE_MANY;
    size_t max = 8 + op->nkeys * (3 + RL_WAKE_BUCKETS);
    many_cmd m = {.argc = 0};
    int rc;

    m.argv = malloc(max * sizeof *m.argv);
    m.lens = malloc(max * sizeof *m.lens);
    if (m.argv == NULL || m.lens == NULL) {
        rc = RL_E_NOMEM;
        goto out;
    }
    add(&m, eval ? "EVAL" : "EVALSHA", eval ? 4 : 7);
    add(&m, eval ? rl_script_source(s) : rl_script_sha(s), strlen(eval ? rl_script_source(s) : rl_script_sha(s)));
    add_num(&m, (long long)(op->nkeys * (s == RL_SCRIPT_ACQUIRE_MANY ? 4 : 3 + RL_WAKE_BUCKETS)));
    if ((rc = many_keys(&m, op, s)) != 0) {
        goto out;
    }
    add(&m, op->token, op->token_len);
    if (s == RL_SCRIPT_ACQUIRE_MANY) {
        add_num(&m, op->ttl_ms);
        add(&m, op->waiter != NULL ? op->waiter : "", op->waiter != NULL ? op->waiter_len : 0);
        add_num(&m, op->wait_ms);
        add(&m, op->enqueue ? "1" : "0", 1);
    }
    rc = rl_conn_append(c, m.argc, m.argv, m.lens, now_us);
out:
    free(m.argv);
    free(m.lens);
    free(m.store);
    return rc;
}

/* {PTTL, index from 1, last entry id, holder}: a no with the PTTL, and
 * "INDEX ID HOLDER" in out->text (rl_many_blocked(), rl_queued_parse()). */
static int judge_queued_many(const rl_lock_op *op, const redisReply *reply, rl_result *out, char *err, size_t errlen)
{
    int at;
    if (reply->elements != 4 || reply->element[0]->type != REDIS_REPLY_INTEGER
        || reply->element[1]->type != REDIS_REPLY_INTEGER || reply->element[1]->integer < 1
        || (unsigned long long)reply->element[1]->integer > op->nkeys) {
        snprintf(err, errlen, "malformed reply to the acquire script");
        return RL_REPLY_ERROR;
    }
    at = snprintf(out->text, sizeof out->text, "%lld ", reply->element[1]->integer - 1);
    if (rl_queued_format(reply->element[2], reply->element[3], out->text + at, sizeof out->text - (size_t)at) != 0) {
        snprintf(err, errlen, "malformed reply to the acquire script");
        return RL_REPLY_ERROR;
    }
    out->value = reply->element[0]->integer;
    return RL_REPLY_NO;
}

int rl_many_op_judge(const rl_lock_op *op, const void *r, rl_result *out, char *err, size_t errlen)
{
    const redisReply *reply = r;
    long long *value = &out->value;
    if (reply->type == REDIS_REPLY_INTEGER) {
        *value = reply->integer;
        if (op->kind == RL_OP_UNLOCK_MANY) {
            return reply->integer >= 1 ? RL_REPLY_YES : RL_REPLY_NO;
        }
        /* the script's -3, or MSETEX's 1: all taken; MSETEX's 0: one held
         * (its PTTL not known) */
        if (reply->integer <= -3 || reply->integer == 1) {
            *value = 0;
            return RL_REPLY_YES;
        }
        if (reply->integer == 0) {
            *value = -1;
            return RL_REPLY_NO;
        }
    }
    if (reply->type == REDIS_REPLY_ARRAY && op->kind == RL_OP_LOCK_MANY && reply->elements == 1
        && reply->element[0]->type == REDIS_REPLY_INTEGER) {
        *value = reply->element[0]->integer; /* the script's {PTTL}: one held */
        return RL_REPLY_NO;
    }
    if (reply->type == REDIS_REPLY_ARRAY && op->kind == RL_OP_LOCK_MANY && op->enqueue) {
        return judge_queued_many(op, reply, out, err, errlen);
    }
    snprintf(err, errlen, "unexpected reply of type %d", reply->type);
    return RL_REPLY_ERROR;
}

int rl_many_blocked(const char *msg, size_t nkeys, size_t *index, const char **id)
{
    char *end;
    unsigned long long i = strtoull(msg, &end, 10);
    if (end == msg || *end != ' ' || i >= nkeys) {
        return 0;
    }
    *index = (size_t)i;
    *id = end + 1;
    return 1;
}
