/* Sentinel replies: get-master-addr-by-name, ROLE, the failover signs and
 * the cache key; and how rl_op_judge reports them to the fan-out. */
#include <string.h>
#include <hiredis/hiredis.h>
#include "unit.h"
#include "../topology/rl_sentinel.h"
#include "../lock/rl_lockops.h"
#include "../topology/rl_topology_cmds.h"
#include "../base/rl_status.h"

static redisReply *parse(const char *resp)
{
    return unit_reply(resp, strlen(resp));
}

static int master(const char *resp, rl_sentinel_addr *a, char *err)
{
    redisReply *r = parse(resp);
    int v = r ? rl_sentinel_judge_master(r, a, err, 128) : 99;
    freeReplyObject(r);
    return v;
}

static int role(const char *resp, char *err)
{
    redisReply *r = parse(resp);
    int v = r ? rl_sentinel_judge_role(r, err, 128) : 99;
    freeReplyObject(r);
    return v;
}

UNIT_TEST(test_sentinel_master_reply)
{
    rl_sentinel_addr a;
    char err[128];

    CHECK(master("*2\r\n$9\r\n127.0.0.1\r\n$4\r\n6380\r\n", &a, err) == RL_SENTINEL_OK
              && strcmp(a.host, "127.0.0.1") == 0 && a.port == 6380,
          "plain answer: %s:%d", a.host, a.port);
    CHECK(master("*2\r\n$3\r\n::1\r\n$5\r\n65535\r\n", &a, err) == RL_SENTINEL_OK && a.port == 65535, "v6, top port");
    CHECK(master("*-1\r\n", &a, err) == RL_SENTINEL_NO && strstr(err, "does not know"), "nil array: %s", err);
    CHECK(master("$-1\r\n", &a, err) == RL_SENTINEL_NO, "nil bulk");
    CHECK(master("-ERR unknown\r\n", &a, err) == RL_SENTINEL_BAD && strcmp(err, "ERR unknown") == 0, "error: %s", err);
    CHECK(master("*1\r\n$1\r\nh\r\n", &a, err) == RL_SENTINEL_BAD, "one element");
    CHECK(master("*3\r\n$1\r\nh\r\n$1\r\n1\r\n$1\r\n1\r\n", &a, err) == RL_SENTINEL_BAD, "three elements");
    CHECK(master("*2\r\n:1\r\n$1\r\n1\r\n", &a, err) == RL_SENTINEL_BAD, "integer host");
    CHECK(master("*2\r\n$0\r\n\r\n$1\r\n1\r\n", &a, err) == RL_SENTINEL_BAD, "empty host");
    CHECK(master("*2\r\n$6\r\npw@h.x\r\n$1\r\n1\r\n", &a, err) == RL_SENTINEL_BAD, "host with @");
    CHECK(master("*2\r\n$1\r\nh\r\n$1\r\n0\r\n", &a, err) == RL_SENTINEL_BAD, "port 0");
    CHECK(master("*2\r\n$1\r\nh\r\n$5\r\n65536\r\n", &a, err) == RL_SENTINEL_BAD, "port 65536");
    CHECK(master("*2\r\n$1\r\nh\r\n$2\r\n-1\r\n", &a, err) == RL_SENTINEL_BAD, "port -1");
    CHECK(master("*2\r\n$1\r\nh\r\n$3\r\n12x\r\n", &a, err) == RL_SENTINEL_BAD, "port 12x");
    CHECK(master("*2\r\n$1\r\nh\r\n$0\r\n\r\n", &a, err) == RL_SENTINEL_BAD, "empty port");
    CHECK(master("*2\r\n$1\r\nh\r\n$9\r\n123456789\r\n", &a, err) == RL_SENTINEL_BAD, "long port");
    CHECK(master("+OK\r\n", &a, err) == RL_SENTINEL_BAD, "status reply");
}

UNIT_TEST(test_sentinel_role_reply)
{
    char err[128];
    CHECK(role("*3\r\n$6\r\nmaster\r\n:100\r\n*1\r\n*3\r\n$9\r\n127.0.0.1\r\n$4\r\n6381\r\n$3\r\n100\r\n", err)
              == RL_SENTINEL_OK,
          "master with a replica");
    CHECK(role("*3\r\n$6\r\nmaster\r\n:0\r\n*0\r\n", err) == RL_SENTINEL_OK, "master alone");
    CHECK(role("*5\r\n$5\r\nslave\r\n$9\r\n127.0.0.1\r\n:6379\r\n$9\r\nconnected\r\n:10\r\n", err) == RL_SENTINEL_NO
              && strstr(err, "slave"),
          "replica: %s", err);
    CHECK(role("*2\r\n$8\r\nsentinel\r\n*0\r\n", err) == RL_SENTINEL_NO, "sentinel");
    CHECK(role("*1\r\n$7\r\nmasters\r\n", err) == RL_SENTINEL_BAD, "unknown role");
    CHECK(role("-NOPERM no\r\n", err) == RL_SENTINEL_BAD && strcmp(err, "NOPERM no") == 0, "error");
    CHECK(role("*0\r\n", err) == RL_SENTINEL_BAD, "empty array");
    CHECK(role(":1\r\n", err) == RL_SENTINEL_BAD, "integer");
}

UNIT_TEST(test_sentinel_failover_sign)
{
    CHECK(rl_sentinel_failover_sign(RL_E_CONNECT, "connect: Connection refused"), "refused");
    CHECK(rl_sentinel_failover_sign(RL_E_TIMEOUT, "timed out"), "timeout");
    CHECK(rl_sentinel_failover_sign(RL_E_IO, "connection lost"), "lost");
    CHECK(rl_sentinel_failover_sign(RL_E_REPLY, "READONLY You can't write against a read only replica."), "READONLY");
    CHECK(rl_sentinel_failover_sign(RL_E_REPLY, "WAIT refused: UNBLOCKED force unblock from blocking operation, "
                                                "instance state changed (master -> replica?)"),
          "WAIT cut by a demotion");
    CHECK(!rl_sentinel_failover_sign(RL_E_REPLY, "OOM command not allowed"), "OOM");
    CHECK(!rl_sentinel_failover_sign(RL_E_AUTH, "WRONGPASS"), "auth");
    CHECK(!rl_sentinel_failover_sign(RL_E_PROTOCOL, "bulk too long"), "protocol");
    CHECK(!rl_sentinel_failover_sign(RL_OK, ""), "ok");
}

UNIT_TEST(test_sentinel_cache_key)
{
    const char *a[] = {"h:1", "h:2"}, *b[] = {"h:1h", ":2"};
    char k1[64], k2[64], small[4];
    size_t n1 = rl_sentinel_cache_key("m", a, 2, k1, sizeof k1);
    size_t n2 = rl_sentinel_cache_key("m", b, 2, k2, sizeof k2);
    CHECK(n1 != n2 || memcmp(k1, k2, n1) != 0, "names that concatenate alike stay apart");
    CHECK(rl_sentinel_cache_key("m", a, 2, small, sizeof small) == n1, "needed length reported when cut");
    CHECK(n1 == strlen("1:m3:h:13:h:2") && memcmp(k1, "1:m3:h:13:h:2", n1) == 0, "key '%.*s'", (int)n1, k1);
}

UNIT_TEST(test_sentinel_ops_judged)
{
    rl_topology_args master = {.service = "mymaster", .service_len = 8}, none = {0};
    rl_op op = rl_topology_op(RL_TOPO_SENTINEL_MASTER, &master);
    rl_op rop = rl_topology_op(RL_TOPO_ROLE, &none);
    char err[256];
    rl_result value;
    redisReply *r = parse("*2\r\n$9\r\n127.0.0.1\r\n$4\r\n6380\r\n");
    CHECK(rl_op_judge_alone(&op, r, &value, err, sizeof err) == RL_REPLY_YES && value.value == 6380
              && strcmp(value.text, "127.0.0.1") == 0,
          "master address to host in the result's text, port in its value");
    freeReplyObject(r);
    r = parse("*-1\r\n");
    CHECK(rl_op_judge_alone(&op, r, &value, err, sizeof err) == RL_REPLY_NO, "unknown service is a no");
    freeReplyObject(r);
    r = parse("-NOAUTH Authentication required.\r\n");
    CHECK(rl_op_judge_alone(&op, r, &value, err, sizeof err) == RL_REPLY_NOAUTH, "NOAUTH");
    freeReplyObject(r);
    r = parse("*5\r\n$5\r\nslave\r\n$9\r\n127.0.0.1\r\n:6379\r\n$9\r\nconnected\r\n:10\r\n");
    CHECK(rl_op_judge_alone(&rop, r, &value, err, sizeof err) == RL_REPLY_NO, "ROLE of a replica is a no");
    freeReplyObject(r);
    r = parse("*3\r\n$6\r\nmaster\r\n:0\r\n*0\r\n");
    CHECK(rl_op_judge_alone(&rop, r, &value, err, sizeof err) == RL_REPLY_YES, "ROLE of a master is a yes");
    freeReplyObject(r);
}
