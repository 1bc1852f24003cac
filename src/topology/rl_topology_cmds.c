#include "rl_topology_cmds.h"
#include "rl_sentinel.h"
#include "rl_slots.h"
#include "../transport/rl_argv.h"
#include "../transport/rl_handshake.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>

int rl_topology_op_append(rl_conn *c, const rl_op *op, rl_send_form form, int64_t now_us)
{
    const rl_topology_args *a = op->args;
    rl_argv b = {.argc = 0};
    (void)form; /* no scripts here: every form is the same command */
    if (op->kind == RL_TOPO_SENTINEL_MASTER) {
        rl_argv_add(&b, "SENTINEL", 8);
        rl_argv_add(&b, "get-master-addr-by-name", 23);
        rl_argv_add(&b, a->service, a->service_len);
    } else if (op->kind == RL_TOPO_ROLE) {
        rl_argv_add(&b, "ROLE", 4);
    } else {
        rl_argv_add(&b, "CLUSTER", 7);
        rl_argv_add(&b, "SLOTS", 5);
    }
    return rl_argv_append(c, &b, now_us);
}

int rl_asking_append(rl_conn *c, int64_t now_us)
{
    rl_argv b = {.argc = 0};
    rl_argv_add(&b, "ASKING", 6);
    return rl_argv_append(c, &b, now_us);
}

int rl_asking_prefix(rl_conn *c, int64_t now_us)
{
    return rl_asking_append(c, now_us) == 0 ? 1 : -1;
}

/* A sentinel's answer, or ROLE (rl_sentinel.c reads them). */
static int judge_sentinel(const rl_op *op, const redisReply *reply, rl_result *out, char *err, size_t errlen)
{
    rl_sentinel_addr addr;
    int v;

    if (op->kind == RL_TOPO_ROLE) {
        v = rl_sentinel_judge_role(reply, err, errlen);
    } else {
        v = rl_sentinel_judge_master(reply, &addr, err, errlen);
        if (v == RL_SENTINEL_OK) {
            snprintf(out->text, sizeof out->text, "%s", addr.host);
            out->value = addr.port;
        }
    }
    if (v == RL_SENTINEL_BAD && rl_reply_wants_login(reply, err, errlen)) {
        return RL_REPLY_NOAUTH;
    }
    return v == RL_SENTINEL_OK ? RL_REPLY_YES : v == RL_SENTINEL_NO ? RL_REPLY_NO : RL_REPLY_ERROR;
}

/* CLUSTER SLOTS' map (rl_slots.c reads it): the first complete map wins; a
 * map that does not parse is the node's error (its reason in err, no host
 * bytes in it). */
static int judge_slots(const rl_op *op, const rl_conn *c, const redisReply *reply, char *err, size_t errlen)
{
    rl_slot_map *m = ((const rl_topology_args *)op->args)->slot_map, *got;
    char why[160];
    int verdict;

    if (reply->type != REDIS_REPLY_ARRAY) {
        if (reply->type != REDIS_REPLY_ERROR) {
            snprintf(err, errlen, "unexpected reply of type %d", reply->type);
            return RL_REPLY_ERROR;
        }
        snprintf(err, errlen, "%.*s", (int)reply->len, reply->str);
        return rl_reply_wants_login(reply, err, errlen) ? RL_REPLY_NOAUTH : RL_REPLY_ERROR;
    }
    if (m == NULL) {
        snprintf(err, errlen, "CLUSTER SLOTS: no map to fill");
        return RL_REPLY_INVALID;
    }
    if (rl_slot_map_complete(m)) {
        return RL_REPLY_YES;
    }
    got = malloc(sizeof *got); /* about 300 KiB: not on the stack */
    if (got == NULL) {
        snprintf(err, errlen, "out of memory");
        return RL_REPLY_NOMEM;
    }
    if (rl_slot_map_from_reply(got, reply, c != NULL && c->ep.host ? c->ep.host : "", why, sizeof why) != 0) {
        snprintf(err, errlen, "CLUSTER SLOTS: %s", why);
        verdict = RL_REPLY_INVALID;
    } else if (!rl_slot_map_complete(got)) {
        snprintf(err, errlen, "CLUSTER SLOTS: not every slot is served (cluster not ready)");
        verdict = RL_REPLY_NO;
    } else {
        memcpy(m, got, sizeof *m);
        verdict = RL_REPLY_YES;
    }
    free(got);
    return verdict;
}

int rl_topology_op_judge(const rl_op *op, rl_conn *c, const void *reply, rl_result *out, char *err, size_t errlen)
{
    out->value = 0;
    if (op->kind == RL_TOPO_CLUSTER_SLOTS) {
        return judge_slots(op, c, reply, err, errlen);
    }
    return judge_sentinel(op, reply, out, err, errlen);
}

static int family_append(rl_conn *c, const rl_op *op, rl_send_form form, int64_t now_us)
{
    return rl_topology_op_append(c, op, form, now_us) == 0 ? 0 : -1;
}

const rl_family rl_topology_family = {
    .name = "topology",
    .append = family_append,
    .judge = rl_topology_op_judge,
};

rl_op rl_topology_op(rl_topology_kind kind, const rl_topology_args *args)
{
    rl_op op = {0};
    op.kind = (int)kind;
    op.family = &rl_topology_family;
    op.args = args;
    return op;
}
