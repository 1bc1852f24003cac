/* Whether a node can evict lock keys: the reply to CONFIG GET maxmemory*
 * judged (src/transport/rl_evict.c), read on a connection among the
 * discards, and the process-wide record of the nodes found so. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <hiredis/hiredis.h>
#include "unit.h"
#include "../transport/rl_conn.h"
#include "../transport/rl_evict.h"

/* RESP2 as Redis 7 answers, maxmemory first or last, other pairs between. */
#define PAIRS(mem, pol)                                                                         \
    "*10\r\n$9\r\nmaxmemory\r\n$" mem "\r\n$17\r\nmaxmemory-clients\r\n$1\r\n0\r\n"             \
    "$27\r\nmaxmemory-eviction-tenacity\r\n$2\r\n10\r\n$16\r\nmaxmemory-policy\r\n$" pol "\r\n" \
    "$17\r\nmaxmemory-samples\r\n$1\r\n5\r\n"

UNIT_TEST(test_evict_judge)
{
    static const struct {
        const char *reply;
        int want;
        const char *policy;
    } cases[] = {
        {PAIRS("8\r\n20971520", "11\r\nallkeys-lru"), RL_EVICT_RISKY, "allkeys-lru"},
        {PAIRS("8\r\n20971520", "12\r\nvolatile-lru"), RL_EVICT_RISKY, "volatile-lru"},
        {PAIRS("8\r\n20971520", "12\r\nvolatile-ttl"), RL_EVICT_RISKY, "volatile-ttl"},
        {PAIRS("8\r\n20971520", "14\r\nallkeys-random"), RL_EVICT_RISKY, "allkeys-random"},
        {PAIRS("8\r\n20971520", "10\r\nnoeviction"), RL_EVICT_SAFE, ""},
        {PAIRS("8\r\n20971520", "10\r\nNOEVICTION"), RL_EVICT_SAFE, ""},
        {PAIRS("1\r\n0", "11\r\nallkeys-lru"), RL_EVICT_SAFE, ""},
        {"*4\r\n$16\r\nmaxmemory-policy\r\n$11\r\nallkeys-lfu\r\n$9\r\nmaxmemory\r\n$1\r\n1\r\n", RL_EVICT_RISKY,
         "allkeys-lfu"},
        {"*4\r\n$9\r\nMAXMEMORY\r\n$3\r\n100\r\n$16\r\nMaxMemory-Policy\r\n$11\r\nallkeys-lru\r\n", RL_EVICT_RISKY,
         "allkeys-lru"},
        /* an unknown policy of a later server: it is not noeviction */
        {"*4\r\n$9\r\nmaxmemory\r\n$3\r\n100\r\n$16\r\nmaxmemory-policy\r\n$8\r\nsome\x01new\r\n", RL_EVICT_RISKY,
         "some?new"},
        /* refused or not the pairs: not known */
        {"-NOPERM this user has no permissions to run the 'config|get' command\r\n", RL_EVICT_UNKNOWN, ""},
        {"-ERR unknown command 'CONFIG'\r\n", RL_EVICT_UNKNOWN, ""},
        {"*0\r\n", RL_EVICT_UNKNOWN, ""},
        {"+OK\r\n", RL_EVICT_UNKNOWN, ""},
        {":1\r\n", RL_EVICT_UNKNOWN, ""},
        {"$-1\r\n", RL_EVICT_UNKNOWN, ""},
        {"*-1\r\n", RL_EVICT_UNKNOWN, ""},
        {"$9\r\nmaxmemory\r\n", RL_EVICT_UNKNOWN, ""},
        {"*2\r\n$9\r\nmaxmemory\r\n$3\r\n100\r\n", RL_EVICT_UNKNOWN, ""},                            /* no policy */
        {"*2\r\n$16\r\nmaxmemory-policy\r\n$11\r\nallkeys-lru\r\n", RL_EVICT_UNKNOWN, ""},           /* no maxmemory */
        {"*3\r\n$9\r\nmaxmemory\r\n$3\r\n100\r\n$16\r\nmaxmemory-policy\r\n", RL_EVICT_UNKNOWN, ""}, /* odd */
        {"*4\r\n$9\r\nmaxmemory\r\n:100\r\n$16\r\nmaxmemory-policy\r\n$11\r\nallkeys-lru\r\n", RL_EVICT_UNKNOWN, ""},
        {"*4\r\n$9\r\nmaxmemory\r\n$-1\r\n$16\r\nmaxmemory-policy\r\n$11\r\nallkeys-lru\r\n", RL_EVICT_UNKNOWN, ""},
        {"*4\r\n*1\r\n$9\r\nmaxmemory\r\n$3\r\n100\r\n$16\r\nmaxmemory-policy\r\n$11\r\nallkeys-lru\r\n",
         RL_EVICT_UNKNOWN, ""},
        {"*4\r\n$9\r\nmaxmemory\r\n$2\r\n-1\r\n$16\r\nmaxmemory-policy\r\n$11\r\nallkeys-lru\r\n", RL_EVICT_UNKNOWN,
         ""},
        {"*4\r\n$9\r\nmaxmemory\r\n$4\r\n20mb\r\n$16\r\nmaxmemory-policy\r\n$11\r\nallkeys-lru\r\n", RL_EVICT_UNKNOWN,
         ""},
        {"*4\r\n$9\r\nmaxmemory\r\n$0\r\n\r\n$16\r\nmaxmemory-policy\r\n$11\r\nallkeys-lru\r\n", RL_EVICT_UNKNOWN, ""},
        {"*4\r\n$9\r\nmaxmemory\r\n$20\r\n99999999999999999999\r\n$16\r\nmaxmemory-policy\r\n$11\r\nallkeys-lru\r\n",
         RL_EVICT_UNKNOWN, ""},
        {"*4\r\n$9\r\nmaxmemory\r\n$3\r\n100\r\n$16\r\nmaxmemory-policy\r\n$0\r\n\r\n", RL_EVICT_UNKNOWN, ""},
        /* names that only start like ours */
        {"*4\r\n$10\r\nmaxmemoryx\r\n$3\r\n100\r\n$16\r\nmaxmemory-policy\r\n$11\r\nallkeys-lru\r\n", RL_EVICT_UNKNOWN,
         ""},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char policy[RL_EVICT_POLICY_LEN] = "";
        void *r = unit_reply(cases[i].reply, strlen(cases[i].reply));
        int got;
        if (r == NULL) {
            CHECK(0, "case %zu does not parse", i);
            continue;
        }
        got = rl_evict_judge(r, policy, sizeof policy);
        CHECK(got == cases[i].want && (got != RL_EVICT_RISKY || strcmp(policy, cases[i].policy) == 0),
              "case %zu: %d '%s'", i, got, policy);
        freeReplyObject(r);
    }
    CHECK(rl_evict_judge(NULL, NULL, 0) == RL_EVICT_UNKNOWN, "no reply");
}

/* A policy longer than the room is cut, NUL-terminated; no room at all
 * still says risky without writing. */
UNIT_TEST(test_evict_judge_policy_room)
{
    char small[5] = "xxxx", none[1] = "z";
    void *r = UNIT_REPLY("*4\r\n$9\r\nmaxmemory\r\n$3\r\n100\r\n$16\r\nmaxmemory-policy\r\n$11\r\nallkeys-lru\r\n");
    CHECK(rl_evict_judge(r, small, sizeof small) == RL_EVICT_RISKY && strcmp(small, "allk") == 0, "cut: %s", small);
    CHECK(rl_evict_judge(r, none, 0) == RL_EVICT_RISKY && none[0] == 'z', "no room");
    freeReplyObject(r);
}

/* Replies made by hand, as no reader would make them: a declared count
 * without its elements, NULL elements, a RESP3 map. */
UNIT_TEST(test_evict_judge_hostile_shapes)
{
    redisReply name = {.type = REDIS_REPLY_STRING, .str = "maxmemory", .len = 9};
    redisReply value = {.type = REDIS_REPLY_STRING, .str = "100", .len = 3};
    redisReply pname = {.type = REDIS_REPLY_STRING, .str = "maxmemory-policy", .len = 16};
    redisReply pvalue = {.type = REDIS_REPLY_STRING, .str = "allkeys-lru", .len = 11};
    redisReply nostr = {.type = REDIS_REPLY_STRING, .str = NULL, .len = 5};
    redisReply *pairs[4] = {&name, &value, &pname, &pvalue};
    redisReply *holes[4] = {&name, NULL, &pname, &pvalue};
    redisReply *nulls[4] = {&name, &nostr, &pname, &pvalue};
    redisReply top = {.type = REDIS_REPLY_ARRAY};
    char policy[RL_EVICT_POLICY_LEN];

    top.elements = SIZE_MAX - 1; /* a huge count, no elements */
    top.element = NULL;
    CHECK(rl_evict_judge(&top, policy, sizeof policy) == RL_EVICT_UNKNOWN, "huge count without elements");
    top.elements = 4;
    top.element = holes;
    CHECK(rl_evict_judge(&top, policy, sizeof policy) == RL_EVICT_UNKNOWN, "a NULL element");
    top.element = nulls;
    CHECK(rl_evict_judge(&top, policy, sizeof policy) == RL_EVICT_UNKNOWN, "a string without bytes");
    top.element = pairs;
    CHECK(rl_evict_judge(&top, policy, sizeof policy) == RL_EVICT_RISKY, "the pairs by hand");
#ifdef REDIS_REPLY_MAP
    top.type = REDIS_REPLY_MAP; /* RESP3: the same pairs, a map */
    CHECK(rl_evict_judge(&top, policy, sizeof policy) == RL_EVICT_RISKY && strcmp(policy, "allkeys-lru") == 0,
          "a RESP3 map");
#endif
    top.type = REDIS_REPLY_INTEGER;
    CHECK(rl_evict_judge(&top, policy, sizeof policy) == RL_EVICT_UNKNOWN, "an integer with elements");
}

/* On a connection: the probe's reply is the discard probe_in[RL_PROBE_EVICT] counts
 * to; those before it change nothing; closing forgets what was found. */
UNIT_TEST(test_evict_probe_on_conn)
{
    rl_conn *c = unit_conn(NULL, NULL, 0);
    void *ok = UNIT_REPLY("+OK\r\n"), *msetex = UNIT_REPLY("*0\r\n");
    void *risky = UNIT_REPLY(PAIRS("8\r\n20971520", "12\r\nvolatile-ttl"));
    void *refused = UNIT_REPLY("-NOPERM no permissions to run the 'config|get' command\r\n");

    CHECK(c->caps.evict == RL_EVICT_UNKNOWN && c->probe_in[RL_PROBE_EVICT] == -1, "fresh: not known");
    c->probe_in[RL_PROBE_COMMANDS] = 1;
    c->probe_in[RL_PROBE_EVICT] = 2;
    rl_conn_owe_discards(c, 3);
    rl_conn_discard_one(c, ok);
    rl_conn_discard_one(c, msetex);
    CHECK(c->caps.evict == RL_EVICT_UNKNOWN && c->probe_in[RL_PROBE_EVICT] == 0 && c->caps.msetex == 0,
          "not before its reply");
    rl_conn_discard_one(c, risky);
    CHECK(c->caps.evict == RL_EVICT_RISKY && strcmp(c->caps.evict_policy, "volatile-ttl") == 0
              && c->probe_in[RL_PROBE_EVICT] == -1 && c->discard == 0,
          "found: %d %s", c->caps.evict, c->caps.evict_policy);
    rl_conn_owe_discards(c, 1);
    rl_conn_discard_one(c, ok);
    CHECK(c->caps.evict == RL_EVICT_RISKY, "a later discard changes nothing");
    rl_conn_close(c);
    CHECK(c->caps.evict == RL_EVICT_UNKNOWN && c->caps.evict_policy[0] == '\0',
          "closed: forgotten (the next may be another)");
    c->probe_in[RL_PROBE_EVICT] = 0;
    rl_conn_owe_discards(c, 1);
    rl_conn_discard_one(c, refused);
    CHECK(c->caps.evict == RL_EVICT_UNKNOWN && c->probe_in[RL_PROBE_EVICT] == -1, "refused: not known");
    freeReplyObject(ok);
    freeReplyObject(msetex);
    freeReplyObject(risky);
    freeReplyObject(refused);
    rl_conn_free(c);
}

/* The record: each node counted once, claimed once, up to the cap. */
UNIT_TEST(test_evict_record)
{
    char name[32];
    int i, told = 0, added = -1;

    rl_evict_forget();
    CHECK(rl_evict_nodes() == 0 && rl_evict_claim("a:1") == 0, "empty: nothing to claim");
    CHECK(rl_evict_seen("a:1", &added) == 1 && added == 1, "seen: added");
    CHECK(rl_evict_seen("a:1", &added) == 1 && added == 0 && rl_evict_nodes() == 1, "seen twice, one node");
    CHECK(rl_evict_claim("a:1") == 1 && rl_evict_claim("a:1") == 0, "claimed once");
    CHECK(rl_evict_seen("a:1", NULL) == 0 && rl_evict_nodes() == 1, "claimed: nothing more to tell");
    CHECK(rl_evict_seen("a:2", NULL) == 1 && rl_evict_nodes() == 2 && rl_evict_claim("a:2") == 1, "another node");
    for (i = 0; i < RL_EVICT_NODES_MAX + 10; i++) {
        snprintf(name, sizeof name, "n%d:1", i);
        told += rl_evict_seen(name, &added);
    }
    CHECK(rl_evict_nodes() == RL_EVICT_NODES_MAX && told == RL_EVICT_NODES_MAX - 2, "capped: %llu, %d told",
          (unsigned long long)rl_evict_nodes(), told);
    CHECK(added == 0 && rl_evict_claim("n1030:1") == 0, "beyond the cap: not recorded, never claimed");
    rl_evict_forget();
    CHECK(rl_evict_nodes() == 0 && rl_evict_seen("a:1", NULL) == 1, "forgotten");
    rl_evict_forget();
}
