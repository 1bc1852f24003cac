/* The topology family (rl_topology_cmds.h): the family an op names, the
 * topology commands and ASKING as written, and CLUSTER
 * SLOTS judged into the op's slot map. */
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>
#include "unit.h"
#include "../lock/rl_op.h"
#include "../topology/rl_topology_cmds.h"
#include "../topology/rl_slots.h"

#define ID "$40\r\n76faec7640381bdbe2280861782fb582582e3a8a\r\n"
/* one master for every slot, which does not know its own address */
#define WHOLE(port) "*1\r\n*3\r\n:0\r\n:16383\r\n*3\r\n$0\r\n\r\n:" port "\r\n" ID
#define HALF "*1\r\n*3\r\n:0\r\n:8191\r\n*3\r\n$9\r\n127.0.0.1\r\n:7000\r\n" ID

static int judged_on(const rl_op *op, rl_conn *c, const char *resp, size_t len, char *err, size_t errlen)
{
    redisReply *r = unit_reply(resp, len);
    rl_result value;
    int v = r ? op->family->judge(op, c, r, &value, err, errlen) : 99;
    freeReplyObject(r);
    return v;
}
#define JUDGED(op, c, lit) judged_on(op, c, lit, sizeof(lit) - 1, err, sizeof err)

UNIT_TEST(test_topology_families)
{
    static const rl_op_kind lock[] = {RL_OP_LOCK,      RL_OP_UNLOCK, RL_OP_EXTEND,      RL_OP_LOCK_WAIT,
                                      RL_OP_WAKE_WAIT, RL_OP_LEAVE,  RL_OP_FENCE_RAISE, RL_OP_HOLDS};
    static const rl_topology_kind topology[] = {RL_TOPO_SENTINEL_MASTER, RL_TOPO_ROLE, RL_TOPO_CLUSTER_SLOTS};
    rl_topology_args none = {0};
    size_t i;
    for (i = 0; i < sizeof lock / sizeof *lock; i++) {
        rl_lock_op op = {.kind = lock[i]};
        rl_op e = rl_lock_eop(&op);
        CHECK(strcmp(e.family->name, "lock") == 0 && e.kind == (int)lock[i] && e.args == &op,
              "kind %d is a lock command", (int)lock[i]);
    }
    for (i = 0; i < sizeof topology / sizeof *topology; i++) {
        rl_op e = rl_topology_op(topology[i], &none);
        CHECK(strcmp(e.family->name, "topology") == 0 && e.kind == (int)topology[i], "kind %d is a topology command",
              (int)topology[i]);
    }
}

UNIT_TEST(test_topology_commands)
{
    rl_conn *c = unit_conn(NULL, NULL, 0);
    rl_topology_args named = {.service = "mymaster", .service_len = 8}, none = {0};
    rl_op master = rl_topology_op(RL_TOPO_SENTINEL_MASTER, &named);
    rl_op role = rl_topology_op(RL_TOPO_ROLE, &none), slots = rl_topology_op(RL_TOPO_CLUSTER_SLOTS, &none);

    CHECK(rl_topology_op_append(c, &master, RL_FORM_FIRST, 1) == 0
              && UNIT_OUT_IS(c, "*3\r\n$8\r\nSENTINEL\r\n$23\r\nget-master-addr-by-name\r\n$8\r\nmymaster\r\n"),
          "SENTINEL get-master-addr-by-name");
    c->out_len = 0;
    CHECK(rl_topology_op_append(c, &role, RL_FORM_RETRY_EVAL, 1) == 0 && UNIT_OUT_IS(c, "*1\r\n$4\r\nROLE\r\n"),
          "ROLE, in any form");
    c->out_len = 0;
    CHECK(rl_topology_op_append(c, &slots, RL_FORM_FIRST, 1) == 0
              && UNIT_OUT_IS(c, "*2\r\n$7\r\nCLUSTER\r\n$5\r\nSLOTS\r\n"),
          "CLUSTER SLOTS");
    c->out_len = 0;
    CHECK(rl_asking_append(c, 1) == 0 && UNIT_OUT_IS(c, "*1\r\n$6\r\nASKING\r\n") && c->owed == 4, "ASKING");
    rl_conn_free(c);
}

UNIT_TEST(test_topology_slots_judged)
{
    rl_conn *c = unit_conn(NULL, NULL, 0); /* host "h" */
    rl_slot_map *m = malloc(sizeof *m);
    rl_topology_args args = {.slot_map = m};
    rl_op slots = rl_topology_op(RL_TOPO_CLUSTER_SLOTS, &args);
    char err[160];

    rl_slot_map_clear(m);
    CHECK(JUDGED(&slots, c, HALF) == RL_REPLY_NO
              && strcmp(err, "CLUSTER SLOTS: not every slot is served (cluster not ready)") == 0
              && !rl_slot_map_complete(m),
          "half the slots: a no (%s), the map untouched", err);
    CHECK(JUDGED(&slots, c, "*1\r\n:5\r\n") == RL_REPLY_INVALID && strncmp(err, "CLUSTER SLOTS: ", 15) == 0,
          "a map that does not parse: %s", err);
    CHECK(JUDGED(&slots, NULL, WHOLE("7000")) == RL_REPLY_INVALID, "a host left out, and no host asked");
    CHECK(JUDGED(&slots, c, WHOLE("7000")) == RL_REPLY_YES && rl_slot_map_complete(m) && m->nnodes == 1
              && strcmp(m->nodes[0].host, "h") == 0 && m->nodes[0].port == 7000,
          "every slot: the asked host's");
    CHECK(JUDGED(&slots, c, WHOLE("7001")) == RL_REPLY_YES && m->nodes[0].port == 7000, "the first complete map wins");
    CHECK(JUDGED(&slots, c, "-NOAUTH Authentication required.\r\n") == RL_REPLY_NOAUTH, "NOAUTH");
    CHECK(JUDGED(&slots, c, "-ERR This instance has cluster support disabled\r\n") == RL_REPLY_ERROR
              && strcmp(err, "ERR This instance has cluster support disabled") == 0,
          "refused: %s", err);
    CHECK(JUDGED(&slots, c, "+OK\r\n") == RL_REPLY_ERROR && strncmp(err, "unexpected reply", 16) == 0, "a status: %s",
          err);
    free(m);
    rl_conn_free(c);
}
