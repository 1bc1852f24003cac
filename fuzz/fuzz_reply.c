/* libFuzzer target: arbitrary bytes, cut into arbitrary chunks, through the
 * reply guard, then hiredis's reader, then the families' judges for every op kind,
 * as rl_conn_fill and the fan-out do.
 *
 * Input: byte 0 picks how many replies are owed (1..4) and a set of limits,
 * byte 1 seeds the chunk sizes, the rest is the stream.
 * Checks: whatever the guard accepted, hiredis parses without error; hiredis
 * never holds more than one reply's worth (max_reply) of unparsed bytes;
 * never more replies than owed, and as many as the guard saw whole; a
 * refusal comes with a reason and holds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>
#include "../src/lock/rl_lockops.h"
#include "../src/topology/rl_topology_cmds.h"
#include "../src/transport/rl_reply_guard.h"

#define REQUIRE(cond) do { if (!(cond)) { fprintf(stderr, "violated: %s\n", #cond); abort(); } } while (0)

static void limits_for(unsigned pick, rl_reply_limits *l)
{
    rl_reply_limits_default(l);
    switch (pick) {
    case 1: /* tiny: every limit is reachable with short inputs */
        l->max_elements = 3;
        l->max_depth = 2;
        l->max_bulk = 8;
        l->max_line = 16;
        l->max_reply = 64;
        break;
    case 2: /* raised, as a topology connection might (depth beyond hiredis's: capped) */
        l->max_elements = 100000;
        l->max_depth = 100;
        l->max_bulk = 1 << 20;
        l->max_line = 1 << 20;
        l->max_reply = 1 << 20;
        break;
    case 3: /* no arrays at all, tiny reply */
        l->max_depth = 0;
        l->max_reply = 6;
        break;
    }
}

static void require_verdict(const redisReply *r, int v, const char *err, size_t errlen)
{
    REQUIRE(v == RL_REPLY_YES || v == RL_REPLY_NO || v == RL_REPLY_NOSCRIPT
            || v == RL_REPLY_ERROR || v == RL_REPLY_NOAUTH);
    REQUIRE(memchr(err, '\0', errlen) != NULL);
    if (v == RL_REPLY_ERROR || v == RL_REPLY_NOAUTH) {
        REQUIRE(r->type == REDIS_REPLY_ERROR || err[0] != '\0');
    }
}

static void judge_all(const redisReply *r)
{
    static const rl_op_kind kinds[] = {RL_OP_LOCK, RL_OP_UNLOCK, RL_OP_EXTEND,
                                       RL_OP_LOCK_WAIT, RL_OP_WAKE_WAIT, RL_OP_LEAVE};
    static const rl_topology_kind topology[] = {RL_TOPO_SENTINEL_MASTER, RL_TOPO_ROLE};
    rl_topology_args named = {.service = "k", .service_len = 1};
    size_t i;
    for (i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        rl_lock_op op = {kinds[i], "k", 1, "t", 1, 1000};
        rl_result out = {0};
        char err[256];
        err[0] = '\0';
        require_verdict(r, rl_op_judge(&op, r, &out, err, sizeof err), err, sizeof err);
        REQUIRE(memchr(out.text, '\0', sizeof out.text) != NULL);
    }
    for (i = 0; i < sizeof topology / sizeof *topology; i++) {
        rl_op op = rl_topology_op(topology[i], &named);
        rl_result out = {0};
        char err[256];
        err[0] = '\0';
        require_verdict(r, rl_op_judge_alone(&op, r, &out, err, sizeof err), err, sizeof err);
        REQUIRE(memchr(out.text, '\0', sizeof out.text) != NULL);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rl_reply_limits limits;
    rl_reply_guard g;
    redisReader *reader;
    unsigned owed, got = 0;
    uint32_t seed;
    size_t pos = 2;
    int refused = 0;

    if (size < 2) {
        return 0;
    }
    owed = 1 + (data[0] & 3);
    limits_for((data[0] >> 2) & 3, &limits);
    seed = 0x9e3779b9u ^ data[1];
    rl_reply_guard_init(&g, &limits);
    rl_reply_guard_expect(&g, owed);
    reader = redisReaderCreate();
    REQUIRE(reader != NULL);

    while (pos < size && !refused) {
        size_t chunk, ok = 0;
        char why[RL_REPLY_WHY_LEN];
        void *reply;

        seed ^= seed << 13; /* xorshift32: chunk sizes 1..64, or a big one */
        seed ^= seed >> 17;
        seed ^= seed << 5;
        chunk = (seed & 7) == 0 ? 16384 : 1 + (seed >> 8) % 64;
        if (chunk > size - pos) {
            chunk = size - pos;
        }
        why[0] = '\0';
        if (rl_reply_guard_scan(&g, (const char *)data + pos, chunk, &ok, why, sizeof why) != 0) {
            REQUIRE(ok < chunk && why[0] != '\0');
            refused = 1;
        } else {
            REQUIRE(ok == chunk);
        }
        /* the accepted part goes to hiredis, which must take it */
        if (ok > 0) {
            REQUIRE(redisReaderFeed(reader, (const char *)data + pos, ok) == REDIS_OK);
        }
        pos += chunk;
        for (;;) {
            REQUIRE(redisReaderGetReply(reader, &reply) == REDIS_OK);
            if (reply == NULL) {
                break;
            }
            got++;
            judge_all(reply);
            freeReplyObject(reply);
        }
        REQUIRE(reader->err == 0);
        REQUIRE(got == g.complete && got <= owed);
        REQUIRE(reader->len - reader->pos <= limits.max_reply);
    }
    if (refused) { /* stays refused */
        size_t ok = 1;
        REQUIRE(rl_reply_guard_scan(&g, "+OK\r\n", 5, &ok, NULL, 0) == -1 && ok == 0);
    }
    redisReaderFree(reader);
    return 0;
}
