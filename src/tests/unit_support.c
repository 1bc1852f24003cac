/* Helpers the unit tests share (unit.h). */
#include <string.h>
#include <hiredis/hiredis.h>
#include "unit.h"
#include "../transport/rl_conn.h"

void *unit_reply(const char *resp, size_t len)
{
    redisReader *r = redisReaderCreate();
    void *reply = NULL;
    redisReaderFeed(r, resp, len);
    if (redisReaderGetReply(r, &reply) != REDIS_OK) {
        reply = NULL;
    }
    redisReaderFree(r);
    return reply;
}

struct rl_conn *unit_conn(const char *user, const char *password, long database)
{
    rl_endpoint ep = {0};
    ep.host = "h";
    ep.port = 1;
    ep.username = (char *)user;
    ep.password = (char *)password;
    ep.database = database;
    return rl_conn_new(&ep, RL_ROLE_COMMAND); /* copies ep */
}

int unit_out_is(const struct rl_conn *c, const char *want, size_t want_len)
{
    if (c->out_len == want_len && (want_len == 0 || memcmp(c->out, want, want_len) == 0)) {
        return 1;
    }
    printf("  wrote '%.*s'\n  want  '%.*s'\n", (int)c->out_len, c->out ? c->out : "", (int)want_len, want);
    return 0;
}
