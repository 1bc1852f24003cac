/* The fan-out against a node that takes the connection and never answers
 * (a listening socket nobody accepts from): a blocking read (watch()'s)
 * that times out benches its node for 1 s, not for its whole block. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "unit.h"
#include "../base/rl_clock.h"
#include "../base/rl_status.h"
#include "../lock/rl_op.h"

/* A loopback port that takes connections (the kernel's backlog) and says
 * nothing; its fd in *fd. 0 when none could be had. */
static int silent_port(int *fd)
{
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    *fd = socket(AF_INET, SOCK_STREAM, 0);
    if (*fd < 0 || bind(*fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(*fd, 8) != 0
        || getsockname(*fd, (struct sockaddr *)&a, &len) != 0) {
        return 0;
    }
    return ntohs(a.sin_port);
}

static rl_conn *conn_to(int port)
{
    rl_endpoint ep = {0};
    ep.host = "127.0.0.1";
    ep.port = port;
    return rl_conn_new(&ep, RL_ROLE_COMMAND);
}

UNIT_TEST(test_fanout_blocking_read_timeout_benches_1s)
{
    int fd, port = silent_port(&fd);
    rl_timeouts t = {.connect_us = 500000, .reply_us = 50000};
    rl_lock_op op = {.kind = RL_OP_WATCH, .key = "lock:x", .key_len = 6, .wait_ms = 100};
    rl_vote v;
    rl_conn *c;
    int64_t left;

    CHECK(port > 0, "a silent port");
    c = conn_to(port);
    memset(&v, 0, sizeof v);
    v.conn = c;
    t.reply_us += 100000; /* the block's time, as watch() gives it */
    rl_fanout(&op, &v, 1, 1, 1, &t);
    left = c->down_until_us - rl_now_us();
    CHECK(v.err.code == RL_E_TIMEOUT, "timed out: %d %s", v.err.code, v.err.msg);
    CHECK(left > 800000 && left <= 1000000, "benched for 1 s: %lld us left", (long long)left);
    rl_conn_free(c);
    close(fd);
}
