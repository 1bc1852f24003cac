/* Pool keys: exact, any length, unambiguous; endpoint names cut visibly. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "../transport/rl_pool_key.h"

static int same_key(const rl_endpoint *a, const char *sa, const rl_endpoint *b, const char *sb, rl_conn_role rb)
{
    char *ka, *kb;
    size_t la, lb;
    int same;
    if (rl_pool_key(a, RL_ROLE_COMMAND, (const unsigned char *)sa, sa ? strlen(sa) : 0, &ka, &la) != 0
        || rl_pool_key(b, rb, (const unsigned char *)sb, sb ? strlen(sb) : 0, &kb, &lb) != 0) {
        return -1;
    }
    same = la == lb && memcmp(ka, kb, la) == 0;
    free(ka);
    free(kb);
    return same;
}

UNIT_TEST(test_pool_key_identity)
{
    rl_endpoint a = {0}, b = {0};
    char user[5000];

    a.host = b.host = "127.0.0.1";
    a.port = b.port = 6379;
    CHECK(same_key(&a, NULL, &b, NULL, RL_ROLE_COMMAND) == 1, "same endpoint, same key");
    CHECK(same_key(&a, NULL, &b, NULL, RL_ROLE_WAIT) == 0, "roles share a key");
    CHECK(same_key(&a, "d1", &b, "d2", RL_ROLE_COMMAND) == 0, "two secrets share a key");
    CHECK(same_key(&a, "", &b, NULL, RL_ROLE_COMMAND) == 0, "empty and no secret share a key");
    b.port = 6380;
    CHECK(same_key(&a, NULL, &b, NULL, RL_ROLE_COMMAND) == 0, "ports share a key");
    b.port = 6379;
    b.database = 1;
    CHECK(same_key(&a, NULL, &b, NULL, RL_ROLE_COMMAND) == 0, "databases share a key");
    b.database = 0;

    /* separators inside names cannot make two identities meet */
    a.username = "a;u1:b";
    b.username = "a";
    CHECK(same_key(&a, "b", &b, "1:b;s1:b", RL_ROLE_COMMAND) == 0, "field bytes forged a key");

    /* any length: a 4999-byte user name differing in its last byte */
    memset(user, 'u', sizeof user - 1);
    user[sizeof user - 1] = '\0';
    a.username = strdup(user);
    user[sizeof user - 2] = 'v';
    b.username = user;
    CHECK(same_key(&a, "s", &b, "s", RL_ROLE_COMMAND) == 0, "long user names differing at the end share a key");
    user[sizeof user - 2] = 'u';
    CHECK(same_key(&a, "s", &b, "s", RL_ROLE_COMMAND) == 1, "same long user name, different keys");
    CHECK(same_key(&a, "right", &b, "wrong", RL_ROLE_COMMAND) == 0, "long user name, two secrets share a key");
    free((char *)a.username);

    /* unix socket vs a tcp host with the same text */
    a.username = b.username = NULL;
    a.host = NULL;
    a.unix_path = "/run/r.sock";
    b.host = "/run/r.sock";
    CHECK(same_key(&a, NULL, &b, NULL, RL_ROLE_COMMAND) == 0, "unix path and host share a key");
}

UNIT_TEST(test_endpoint_name_cut)
{
    rl_endpoint ep = {0};
    char host[1000], name[64];
    memset(host, 'h', sizeof host - 1);
    host[sizeof host - 1] = '\0';
    ep.host = host;
    ep.port = 6379;
    memset(name, 'X', sizeof name);
    rl_endpoint_describe(&ep, name, sizeof name);
    CHECK(strlen(name) == sizeof name - 1, "name not filled: %zu", strlen(name));
    CHECK(strcmp(name + sizeof name - 4, "...") == 0, "long name not cut visibly: %s", name);
    ep.host = "short";
    rl_endpoint_describe(&ep, name, sizeof name);
    CHECK(strcmp(name, "short:6379") == 0, "short name: %s", name);
    rl_endpoint_describe(&ep, name, 4);
    CHECK(strcmp(name, "...") == 0, "tiny buffer: %s", name);
}

UNIT_TEST(test_endpoint_same_node)
{
    rl_endpoint a = {0}, b = {0};
    a.host = "Redis.Internal";
    b.host = "redis.internal";
    a.port = b.port = 6379;
    CHECK(rl_endpoint_same_node(&a, &b), "host case");
    b.port = 6380;
    CHECK(!rl_endpoint_same_node(&a, &b), "ports differ");
    b.host = NULL;
    b.unix_path = "redis.internal";
    CHECK(!rl_endpoint_same_node(&a, &b), "host vs unix path");
    a.host = NULL;
    a.unix_path = "redis.internal";
    CHECK(rl_endpoint_same_node(&a, &b), "same unix path");
}

UNIT_TEST(test_pool_key_tls)
{
    rl_endpoint a = {0}, b = {0};
    a.host = b.host = "h";
    a.port = b.port = 6379;
    b.tls = 1;
    CHECK(same_key(&a, NULL, &b, NULL, RL_ROLE_COMMAND) == 0, "plain and TLS share a key");
}

static int pair(size_t i, size_t j, size_t a, size_t b)
{
    return (i == a && j == b) || (i == b && j == a);
}

/* The two identities (rl_endpoint.h): for every pair of these endpoints,
 * the same connection exactly when the pool key is the same (the password
 * itself standing for its digest), and the same node whenever the same
 * connection. */
UNIT_TEST(test_identities_agree)
{
    static const char *const tls_k1 = "k1", *const tls_k2 = "k2";
    rl_endpoint eps[] = {
        {.host = "h", .port = 6379},
        {.host = "H", .port = 6379}, /* the same node, not the same connection */
        {.host = "h", .port = 6380},
        {.unix_path = "/a"},
        {.unix_path = "/a", .port = 1}, /* a socket's port means nothing */
        {.unix_path = "/b"},
        {.host = "h", .port = 6379, .tls = 1},
        {.host = "h", .port = 6379, .tls = 1, .tls_key = tls_k1, .tls_key_len = 2},
        {.host = "h", .port = 6379, .tls = 1, .tls_key = tls_k2, .tls_key_len = 2},
        {.host = "h", .port = 6379, .database = 1},
        {.host = "h", .port = 6379, .password = "p"},
        {.host = "h", .port = 6379, .password = "q"},
        {.host = "h", .port = 6379, .password = ""},
        {.host = "h", .port = 6379, .username = "u", .password = "p"},
        {.host = "h", .port = 6379, .username = "", .password = "p"},
        {.host = "h", .port = 6379, .username = "v", .password = "p"},
        {.host = "h", .port = 6379, .database = 0, .from_address = RL_EP_DATABASE}, /* where it came from: no matter */
    };
    size_t n = sizeof eps / sizeof eps[0], i, j;

    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            int conn = rl_endpoint_same_connection(&eps[i], &eps[j]);
            int key = same_key(&eps[i], eps[i].password, &eps[j], eps[j].password, RL_ROLE_COMMAND);
            int want = i == j || pair(i, j, 3, 4) || pair(i, j, 0, 16);
            CHECK(conn == want && key == want && (!conn || rl_endpoint_same_node(&eps[i], &eps[j])),
                  "endpoints %zu and %zu: same connection %d, same pool key %d", i, j, conn, key);
        }
    }
    CHECK(rl_endpoint_same_node(&eps[0], &eps[1]) && rl_endpoint_same_node(&eps[0], &eps[6])
              && rl_endpoint_same_node(&eps[0], &eps[13]) && !rl_endpoint_same_node(&eps[0], &eps[2]),
          "one node logged in many ways");
}
