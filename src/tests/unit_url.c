/* URL server forms, table-driven: every form parsed, bad ones refused with
 * a message that never shows the user-info. */
#include <string.h>
#include "unit.h"
#include "../transport/rl_endpoint_parse.h"

static const struct {
    const char *spec;
    const char *host;
    int port;
    const char *user, *pass;
    long db;
    int tls, from;
} good[] = {
    {"redis://localhost", "localhost", 6379, NULL, NULL, 0, 0, 0},
    {"redis://10.0.0.5:6380", "10.0.0.5", 6380, NULL, NULL, 0, 0, 0},
    {"redis://h:6380/3", "h", 6380, NULL, NULL, 3, 0, RL_EP_DATABASE},
    {"redis://h/", "h", 6379, NULL, NULL, 0, 0, 0},
    {"redis://h/0", "h", 6379, NULL, NULL, 0, 0, RL_EP_DATABASE},
    {"redis://h/2147483647", "h", 6379, NULL, NULL, 2147483647, 0, RL_EP_DATABASE},
    {"redis://:s3cret@h", "h", 6379, NULL, "s3cret", 0, 0, RL_EP_PASSWORD},
    {"redis://alice:s3cret@h:7000/2", "h", 7000, "alice", "s3cret", 2, 0,
     RL_EP_USERNAME | RL_EP_PASSWORD | RL_EP_DATABASE},
    {"rediss://alice:s3cret@cache.example.com:6380", "cache.example.com", 6380, "alice", "s3cret", 0, 1,
     RL_EP_USERNAME | RL_EP_PASSWORD},
    {"rediss://h", "h", 6379, NULL, NULL, 0, 1, 0},
    {"redis://[::1]:6381/1", "::1", 6381, NULL, NULL, 1, 0, RL_EP_DATABASE},
    {"redis://:p%40ss%3Aw%2Fd%25@h", "h", 6379, NULL, "p@ss:w/d%", 0, 0, RL_EP_PASSWORD},
    {"redis://us%65r:pa:ss@h", "h", 6379, "user", "pa:ss", 0, 0, RL_EP_USERNAME | RL_EP_PASSWORD},
    {"redis://:raw@pass/w?rd@h:1", "h", 1, NULL, "raw@pass/w?rd", 0, 0, RL_EP_PASSWORD},
    /* Valkey's names for the same URLs */
    {"valkey://h", "h", 6379, NULL, NULL, 0, 0, 0},
    {"valkey://alice:s3cret@h:7000/2", "h", 7000, "alice", "s3cret", 2, 0,
     RL_EP_USERNAME | RL_EP_PASSWORD | RL_EP_DATABASE},
    {"valkey://:p%40ss@[::1]:6381/1", "::1", 6381, NULL, "p@ss", 1, 0, RL_EP_PASSWORD | RL_EP_DATABASE},
    {"valkeys://:s3cret@cache.example.com:6380/0", "cache.example.com", 6380, NULL, "s3cret", 0, 1,
     RL_EP_PASSWORD | RL_EP_DATABASE},
    {"valkeys://h", "h", 6379, NULL, NULL, 0, 1, 0},
    /* a host named after a scheme, with its port, is a host */
    {"valkey:6380", "valkey", 6380, NULL, NULL, 0, 0, 0},
    {"redis", "redis", 6379, NULL, NULL, 0, 0, 0},
    {"tls://h:6390", "h", 6390, NULL, NULL, 0, 1, 0},
    {"tcp://h:6390", "h", 6390, NULL, NULL, 0, 0, 0},
};

static const struct {
    const char *spec;
    const char *want;
} bad[] = {
    {"redis://", "host is empty"},
    {"redis://:s3cret@", "host is empty"},
    {"redis://s3cret@h", "ambiguous"},
    {"redis://alice:@h", "password in the URL is empty"},
    {"redis://:s3%ZZcret@h", "percent-encoding"},
    {"redis://:s3cret%@h", "percent-encoding"},
    {"redis://:s3cret%4@h", "percent-encoding"},
    {"redis://:s3%00cret@h", "percent-encoding"},
    {"redis://h/db1", "database number"},
    {"redis://h/-1", "database number"},
    {"redis://h/2147483648", "database number"},
    {"redis://h/99999999999999999999", "database number"},
    {"redis://h:0", "port"},
    {"redis://h:99999", "port"},
    {"redis://h?timeout=1", "query parameters"},
    {"redis://:s3cret@h?password=x", "query parameters"},
    {"redis://h#frag", "query parameters"},
    {"redis://a:b:c", "IPv6"},
    {"http://h", "unknown scheme, expected tcp://, tls://, unix://, redis://, rediss://, valkey:// or valkeys://"},
    {"valkeyss://h", "unknown scheme"},
    {"Valkey://h", "unknown scheme"},
    {"rediss:/h", "malformed URL"},
    {"valkey:/h", "malformed URL: write the scheme with \"://\""},
    {"valkeys:h:6380", "malformed URL"},
    {"valkey:/:s3cret@h", "malformed URL"},
    {"valkey://", "host is empty"},
    {"valkeys://:s3cret@", "host is empty"},
    {"valkey://s3cret@h", "ambiguous: write valkey://:password@host or valkey://user:password@host"},
    {"valkeys://alice:@h", "password in the URL is empty"},
    {"valkey://:s3%ZZcret@h", "percent-encoding"},
    {"valkey://h/db1", "database number"},
    {"valkey://h?timeout=1", "query parameters"},
    /* the one host rule (unit_host.c), as the string forms word it */
    {"redis://[a:b]:1", "host has a ':' but is not an IPv6 address"},
    {"redis://h%41:1", "host must be a name of letters, digits"},
    {"redis://[h\tx]", "host must be a name of letters, digits"},
    {"pw@h:1", "host contains '@', '?' or '#'; give credentials in the options \"username\" and \"password\""},
    {"tcp://h?password=pw", "give credentials"},
    {"[a b]:1", "host contains '/' or a space"},
};

UNIT_TEST(test_url_forms)
{
    size_t i;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        rl_endpoint ep;
        char err[200] = "";
        int rc = rl_endpoint_parse(good[i].spec, strlen(good[i].spec), &ep, err, sizeof err);
        CHECK(rc == 0, "%s: %s", good[i].spec, err);
        if (rc != 0) {
            continue;
        }
        CHECK(ep.host && strcmp(ep.host, good[i].host) == 0 && ep.port == good[i].port, "%s: host %s port %d",
              good[i].spec, ep.host ? ep.host : "(null)", ep.port);
        CHECK((good[i].user == NULL) == (ep.username == NULL)
                  && (!ep.username || strcmp(ep.username, good[i].user) == 0),
              "%s: user", good[i].spec);
        CHECK((good[i].pass == NULL) == (ep.password == NULL)
                  && (!ep.password || strcmp(ep.password, good[i].pass) == 0),
              "%s: password", good[i].spec);
        CHECK(ep.database == good[i].db && ep.tls == good[i].tls && ep.from_address == good[i].from,
              "%s: db %ld tls %d from %d", good[i].spec, ep.database, ep.tls, ep.from_address);
        rl_endpoint_clear(&ep);
    }
}

UNIT_TEST(test_url_refused)
{
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rl_endpoint ep;
        char err[200] = "";
        int rc = rl_endpoint_parse(bad[i].spec, strlen(bad[i].spec), &ep, err, sizeof err);
        CHECK(rc != 0 && strstr(err, bad[i].want) != NULL, "%s: rc %d, err '%s', want '%s'", bad[i].spec, rc, err,
              bad[i].want);
        CHECK(strstr(err, "s3") == NULL, "%s: the message shows the user-info: %s", bad[i].spec, err);
        rl_endpoint_clear(&ep);
    }
}

UNIT_TEST(test_url_copy_keeps_flags)
{
    rl_endpoint a, b;
    char err[200];
    CHECK(rl_endpoint_parse("rediss://u:p@h/4", 16, &a, err, sizeof err) == 0, "parse: %s", err);
    CHECK(rl_endpoint_copy(&b, &a) == 0 && b.tls == 1 && b.database == 4
              && b.from_address == (RL_EP_USERNAME | RL_EP_PASSWORD | RL_EP_DATABASE),
          "copy lost tls or flags");
    rl_endpoint_clear(&a);
    rl_endpoint_clear(&b);
    CHECK(rl_endpoint_parse("valkeys://u:p@h/4", 17, &a, err, sizeof err) == 0, "parse: %s", err);
    CHECK(rl_endpoint_copy(&b, &a) == 0 && b.tls == 1 && b.database == 4
              && b.from_address == (RL_EP_USERNAME | RL_EP_PASSWORD | RL_EP_DATABASE),
          "copy lost tls or flags");
    rl_endpoint_clear(&a);
    rl_endpoint_clear(&b);
}
