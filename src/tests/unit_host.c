/* The one host rule (src/transport/rl_host.h), table-driven, with the
 * cases where the three rules it replaced differed: the server string's
 * (rl_endpoint.c: only '/' and a space refused, then '@', '?', '#' in
 * ext/), the server array's (ext/: '[' too, a ':' only in an IPv6
 * address) and the Cluster's (rl_slots.c: printable ASCII without '/',
 * '@', '[', ']', any ':' allowed). Then the same hosts through each user:
 * a server string, a CLUSTER SLOTS reply, a MOVED, a sentinel's answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>
#include "unit.h"
#include "../transport/rl_endpoint_parse.h"
#include "../transport/rl_host.h"
#include "../topology/rl_sentinel.h"
#include "../topology/rl_slots.h"

static const struct {
    const char *host;
    size_t len; /* 0: strlen */
    rl_host_fault want;
} cases[] = {
    {"localhost", 0, RL_HOST_OK},
    {"127.0.0.1", 0, RL_HOST_OK},
    {"cache-1.example.com.", 0, RL_HOST_OK},
    {"redis_1", 0, RL_HOST_OK},       /* docker-compose service names */
    {"-leading-dash", 0, RL_HOST_OK}, /* allowed by all three before, kept (rl_host.h says why) */
    {"::1", 0, RL_HOST_OK},
    {"fe80::1:2:3", 0, RL_HOST_OK},
    {"fe80::1%eth0", 0, RL_HOST_OK}, /* the array refused it (inet_pton alone) */
    {"::ffff:10.0.0.1", 0, RL_HOST_OK},
    {"", 0, RL_HOST_EMPTY},
    {"h\0x", 3, RL_HOST_NUL},
    {"a/b", 0, RL_HOST_SLASH_OR_SPACE},
    {"a b", 0, RL_HOST_SLASH_OR_SPACE},
    {"pw@h", 0, RL_HOST_SHOWS_SECRET},
    {"h?auth=pw", 0, RL_HOST_SHOWS_SECRET}, /* a Cluster's host passed before */
    {"h#x", 0, RL_HOST_SHOWS_SECRET},       /* a Cluster's host passed before */
    {"pw@a b", 0, RL_HOST_SLASH_OR_SPACE},  /* the string form's order of messages */
    {"h\tx", 0, RL_HOST_BAD_BYTE},          /* the string and array forms passed it */
    {"h\x01", 0, RL_HOST_BAD_BYTE},
    {"h\x7f", 0, RL_HOST_BAD_BYTE},
    {"b\xc3\xbc"
     "cher",
     0, RL_HOST_BAD_BYTE},          /* non-ASCII: the string and array forms passed it */
    {"[::1]", 0, RL_HOST_BAD_BYTE}, /* brackets are the address's syntax, not the host's */
    {"::1]", 0, RL_HOST_BAD_BYTE},  /* the string and array forms passed ']' */
    {"h!x", 0, RL_HOST_BAD_BYTE},
    {"h\"x", 0, RL_HOST_BAD_BYTE},
    {"h%x", 0, RL_HOST_BAD_BYTE}, /* '%' only for an IPv6 zone */
    {"a:b", 0, RL_HOST_NOT_IPV6}, /* a Cluster's host and "[a:b]:1" passed before */
    {"h:6379", 0, RL_HOST_NOT_IPV6},
    {"1.2.3.4:5", 0, RL_HOST_NOT_IPV6},
    {"fe80::1%", 0, RL_HOST_NOT_IPV6},
    {"fe80::1%a%b", 0, RL_HOST_NOT_IPV6},
    {"fe80::1%an-interface-name-too-long", 0, RL_HOST_NOT_IPV6},
    {"1:2:3:4:5:6:7:8:9", 0, RL_HOST_NOT_IPV6},
};

UNIT_TEST(test_host_rule)
{
    char long_host[300];
    const char *why;
    size_t i;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = cases[i].len ? cases[i].len : strlen(cases[i].host);
        rl_host_fault got;
        why = NULL;
        got = rl_host_check(cases[i].host, len, &why);
        CHECK(got == cases[i].want && (got == RL_HOST_OK) == (why == NULL)
                  && (why == NULL || strncmp(why, "host ", 5) == 0),
              "'%s': %d, want %d (%s)", cases[i].host, got, cases[i].want, why ? why : "-");
    }
    CHECK(rl_host_check("h", 1, NULL) == RL_HOST_OK && rl_host_check("a b", 3, NULL) == RL_HOST_SLASH_OR_SPACE,
          "why may be NULL");
    CHECK(rl_host_check("hostname", 4, NULL) == RL_HOST_OK && rl_host_check("a:b", 1, NULL) == RL_HOST_OK,
          "the length bounds the host");
    /* no length limit in the rule: a user's long name fails at connect */
    memset(long_host, 'h', sizeof long_host);
    CHECK(rl_host_check(long_host, sizeof long_host, NULL) == RL_HOST_OK, "300 bytes");
}

static int string_form(const char *spec, char *err)
{
    rl_endpoint ep;
    int rc = rl_endpoint_parse(spec, strlen(spec), &ep, err, 160);
    rl_endpoint_clear(&ep);
    return rc;
}

static int in_cluster_slots(const char *host, size_t len)
{
    char resp[512], err[160];
    redisReader *rd = redisReaderCreate();
    void *reply = NULL;
    rl_slot_map *m = calloc(1, sizeof *m);
    int n = snprintf(resp, sizeof resp, "*1\r\n*3\r\n:0\r\n:1\r\n*2\r\n$%zu\r\n", len), rc = -1;

    memcpy(resp + n, host, len);
    n += (int)len;
    n += snprintf(resp + n, sizeof resp - (size_t)n, "\r\n:1\r\n");
    redisReaderFeed(rd, resp, (size_t)n);
    if (m != NULL && redisReaderGetReply(rd, &reply) == REDIS_OK && reply != NULL) {
        rc = rl_slot_map_from_reply(m, reply, "s", err, sizeof err);
    }
    freeReplyObject(reply);
    redisReaderFree(rd);
    free(m);
    return rc;
}

static int from_sentinel(const char *host, size_t len)
{
    char resp[512], err[160];
    redisReader *rd = redisReaderCreate();
    void *reply = NULL;
    rl_sentinel_addr a;
    int n = snprintf(resp, sizeof resp, "*2\r\n$%zu\r\n", len), rc = RL_SENTINEL_BAD;

    memcpy(resp + n, host, len);
    n += (int)len;
    n += snprintf(resp + n, sizeof resp - (size_t)n, "\r\n$4\r\n6379\r\n");
    redisReaderFeed(rd, resp, (size_t)n);
    if (redisReaderGetReply(rd, &reply) == REDIS_OK && reply != NULL) {
        rc = rl_sentinel_judge_master(reply, &a, err, sizeof err);
    }
    freeReplyObject(reply);
    redisReaderFree(rd);
    return rc;
}

/* Every host of the table, as a user's "[host]:1" and as each server's:
 * accepted by one exactly when by all; but an empty host, which CLUSTER
 * SLOTS reads as the asked node's host. */
UNIT_TEST(test_host_rule_everywhere)
{
    char spec[300], line[300], err[160];
    rl_redirect r;
    size_t i;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *h = cases[i].host;
        size_t len = cases[i].len ? cases[i].len : strlen(h);
        int ok = cases[i].want == RL_HOST_OK, nul = memchr(h, '\0', len) != NULL, user = 0, moved = 0;
        int slots, sentinel;

        if (!nul) { /* a NUL byte cannot be written into these texts (unit_cluster_replies.c has it) */
            snprintf(spec, sizeof spec, "[%s]:1", h);
            user = string_form(spec, err) == 0;
            snprintf(line, sizeof line, "MOVED 1 [%s]:1", h);
            moved = rl_cluster_redirect(line, strlen(line), &r) == RL_REDIRECT_MOVED;
        }
        slots = in_cluster_slots(h, len) == 0;
        sentinel = from_sentinel(h, len) == RL_SENTINEL_OK;
        CHECK(user == ok && moved == ok && slots == (ok || len == 0) && sentinel == ok,
              "'%s': string %d, MOVED %d, CLUSTER SLOTS %d, sentinel %d, want %d", h, user, moved, slots, sentinel, ok);
    }
}
