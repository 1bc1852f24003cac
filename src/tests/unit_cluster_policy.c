/* The cluster node's policy for replies it did not want, step by step. */
#include <string.h>
#include "unit.h"
#include "../base/rl_status.h"
#include "../topology/rl_cluster_policy.h"

static const rl_timeouts one_second = {.connect_us = 1000000, .reply_us = 1000000};

static rl_vote reply(rl_conn *c, int status, const char *err)
{
    rl_vote v;
    memset(&v, 0, sizeof v);
    v.conn = c;
    v.err.code = status;
    v.sent = 1;
    snprintf(v.err.msg, sizeof v.err.msg, "%s", err);
    return v;
}

UNIT_TEST(cluster_policy_redirections)
{
    rl_endpoint ep = {.host = "10.0.0.1", .port = 7000};
    rl_conn *c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    rl_op lock = {.key = "k", .key_len = 1};
    rl_follow_state st = {.start_us = 0};
    rl_vote v = reply(c, RL_E_REPLY, "MOVED 3999 10.0.0.2:7001");
    rl_follow_plan p = rl_cluster_next_step(&st, &lock, &v, 1000, &one_second);
    int i;

    CHECK(p.step == RL_FOLLOW_MOVED && p.refresh && p.counted && !p.pause && p.rd.slot == 3999
              && strcmp(p.rd.host, "10.0.0.2") == 0 && p.rd.port == 7001,
          "MOVED: refresh, then the named node");
    p = rl_cluster_next_step(&st, &lock, &v, 2000, &one_second);
    CHECK(p.step == RL_FOLLOW_MOVED && !p.refresh, "a second MOVED in the batch does not fetch the map again");
    v = reply(c, RL_E_REPLY, "ASK 3999 :7002");
    p = rl_cluster_next_step(&st, &lock, &v, 3000, &one_second);
    CHECK(p.step == RL_FOLLOW_ASK && !p.refresh && strcmp(p.rd.host, "10.0.0.1") == 0 && p.rd.port == 7002,
          "ASK without a host: the answering node's host (%s)", p.rd.host);
    for (i = 0; i < 2; i++) {
        p = rl_cluster_next_step(&st, &lock, &v, 4000, &one_second);
    }
    CHECK(st.redirects == 5 && !p.pause, "five redirections at once");
    p = rl_cluster_next_step(&st, &lock, &v, 5000, &one_second);
    CHECK(p.step == RL_FOLLOW_ASK && p.pause && st.redirects == 1, "the sixth waits a pause and opens a batch");
    st.redirects = 5;
    p = rl_cluster_next_step(&st, &lock, &v, 990000, &one_second);
    CHECK(p.step == RL_FOLLOW_STOP && !p.counted && v.err.code == RL_E_REDIRECTS && v.sent
              && strcmp(v.err.msg, "still redirected ASK 3999 :7002 after the timeout (1000 ms)") == 0,
          "no time left for a pause: code 16, the last reply quoted, the vote's sending kept (%s)", v.err.msg);
    rl_conn_free(c);
}

UNIT_TEST(cluster_policy_waits_and_losses)
{
    rl_endpoint ep = {.host = "10.0.0.1", .port = 7000};
    rl_conn *c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    rl_op lock = {.key = "k", .key_len = 1}, unlock = lock;
    rl_follow_state st = {.start_us = 0};
    rl_vote v = reply(c, RL_E_REPLY, "TRYAGAIN Multiple keys request during rehashing of slot");
    rl_follow_plan p;

    unlock.flags = RL_ROUTE_NARROWS; /* a release */
    p = rl_cluster_next_step(&st, &unlock, &v, 1000, &one_second);
    CHECK(p.step == RL_FOLLOW_ONE_KEY && !p.pause && st.one_key == 1, "a release under TRYAGAIN: the lock key alone");
    p = rl_cluster_next_step(&st, &unlock, &v, 2000, &one_second);
    CHECK(p.step == RL_FOLLOW_RETRY && p.pause && !p.refresh, "then (a shared lock) the migration is waited out");
    st = (rl_follow_state){.start_us = 0, .redirects = 3};
    p = rl_cluster_next_step(&st, &lock, &v, 1000, &one_second);
    CHECK(p.step == RL_FOLLOW_RETRY && p.pause && st.redirects == 0, "TRYAGAIN on a lock: pause, ask again");
    v = reply(c, RL_E_REPLY, "CLUSTERDOWN The cluster is down");
    p = rl_cluster_next_step(&st, &lock, &v, 1000, &one_second);
    CHECK(p.step == RL_FOLLOW_RETRY && p.pause && p.refresh, "CLUSTERDOWN: pause, fetch the map, ask again");
    p = rl_cluster_next_step(&st, &lock, &v, 980000, &one_second);
    CHECK(p.step == RL_FOLLOW_STOP && v.err.code == RL_E_REDIRECTS
              && strncmp(v.err.msg, "still answering CLUSTERDOWN", 27) == 0,
          "out of time: %s", v.err.msg);
    v = reply(c, RL_E_IO, "connection lost");
    p = rl_cluster_next_step(&st, &lock, &v, 500000, &one_second);
    CHECK(p.step == RL_FOLLOW_MOVE_ON, "a lost node: look for another master");
    p = rl_cluster_next_step(&st, &lock, &v, 1000001, &one_second);
    CHECK(p.step == RL_FOLLOW_STOP && v.err.code == RL_E_IO, "past the call's time the loss stands");
    v = reply(c, RL_E_REPLY, "OOM command not allowed");
    p = rl_cluster_next_step(&st, &lock, &v, 1000, &one_second);
    CHECK(p.step == RL_FOLLOW_STOP && v.err.code == RL_E_REPLY, "another error is the node's answer");
    v = reply(c, RL_E_REPLY, "MOVED 99999 10.0.0.2:7001");
    p = rl_cluster_next_step(&st, &lock, &v, 1000, &one_second);
    CHECK(p.step == RL_FOLLOW_STOP, "a malformed redirection is not followed");
    rl_conn_free(c);
}
