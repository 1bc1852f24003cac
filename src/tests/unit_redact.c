/* rl_endpoint_redact(): what of an address a message may show. */
#include <string.h>
#include "../transport/rl_redact.h"

#include "unit.h"

static void redacts(const char *spec, const char *want)
{
    char buf[RL_REDACT_BUFLEN];
    size_t n = rl_endpoint_redact(spec, strlen(spec), buf, sizeof buf);
    CHECK(strcmp(buf, want) == 0 && n == strlen(want), "redact(%s) = '%s' (%zu), want '%s'", spec, buf, n, want);
}

UNIT_TEST(test_redact_forms)
{
    /* nothing secret: shown as given */
    redacts("", "");
    redacts("127.0.0.1:6379", "127.0.0.1:6379");
    redacts("tcp://10.0.0.1:7000", "tcp://10.0.0.1:7000");
    redacts("[::1]:6381", "[::1]:6381");
    redacts("unix:///run/redis.sock", "unix:///run/redis.sock");
    redacts("unix:/run/redis.sock", "unix:/run/redis.sock");
    redacts("host:abc", "host:abc");
    /* user-info */
    redacts("redis://:s3cret@host", "redis://***@host");
    redacts("rediss://user:pw@h", "rediss://***@h");
    redacts("redis://user:pw@h:6380/2", "redis://***@h:6380/2");
    redacts("redis://u:p@ss@h:1", "redis://***@h:1"); /* the last '@' ends it */
    redacts("redis://u:p/ss@h:1", "redis://***@h:1"); /* a '/' in the password */
    redacts("user:pw@h:6379", "***@h:6379");          /* no scheme */
    redacts("tcp://@h", "tcp://***@h");
    redacts("valkey://:s3cret@host/2", "valkey://***@host/2");
    redacts("valkeys://user:pw@h:6380", "valkeys://***@h:6380");
    redacts("valkey:/:s3cret@h", "***@h"); /* a malformed scheme: no scheme */
    /* query and fragment */
    redacts("tcp://127.0.0.1:6379?password=s3cret", "tcp://127.0.0.1:6379?***");
    redacts("tcp://h:1?auth=x", "tcp://h:1?***");
    redacts("h:1?", "h:1?***");
    redacts("tcp://h:1#frag", "tcp://h:1#***");
    redacts("tcp://h:1/0?x=1#f", "tcp://h:1/0?***#***");
    redacts("redis://u:pw@h:1?timeout=1", "redis://***@h:1?***");
    redacts("unix:///run/redis.sock?password=x", "unix:///run/redis.sock?***");
    /* an '@' after '?' or '#': the password may hold those */
    redacts("redis://:pa?ss@host", "redis://***");
    redacts("redis://:pa#ss@host", "redis://***");
    redacts("tcp://h:1?mail=a@b&pw=x", "tcp://***");
    redacts("pa?ss@host", "***");
    /* not a scheme: the whole is the rest */
    redacts("1x://u:pw@h", "***@h");
    redacts("a b://u:pw@h", "***@h");
    /* control bytes are shown escaped */
    redacts("h\n:1", "h\\x0a:1");
    redacts("h\x7f", "h\\x7f");
}

UNIT_TEST(test_redact_nul_byte)
{
    char buf[RL_REDACT_BUFLEN];
    rl_endpoint_redact("h\0x:1", 5, buf, sizeof buf);
    CHECK(strcmp(buf, "h\\x00x:1") == 0, "NUL shown as '%s'", buf);
}

UNIT_TEST(test_redact_bounded)
{
    char spec[5100], buf[RL_REDACT_BUFLEN], small[8];
    size_t n;

    memcpy(spec, "tcp://", 6);
    memset(spec + 6, 'a', 5000);
    strcpy(spec + 5006, ":1?password=S3CRET");
    n = rl_endpoint_redact(spec, strlen(spec), buf, sizeof buf);
    CHECK(n == sizeof buf - 1 && strlen(buf) == n, "long: length %zu", n);
    CHECK(strncmp(buf, "tcp://aaaa", 10) == 0, "long: starts '%.12s'", buf);
    CHECK(strcmp(buf + n - 3, "...") == 0, "long: ends '%s'", buf + n - 3);
    CHECK(strstr(buf, "S3CRET") == NULL, "long: shows the secret");

    n = rl_endpoint_redact("tcp://127.0.0.1:6379", 20, small, sizeof small);
    CHECK(n == 7 && strcmp(small, "tcp:...") == 0, "small: '%s'", small);
    n = rl_endpoint_redact("abc", 3, small, 1);
    CHECK(n == 0 && small[0] == '\0', "buflen 1: '%s'", small);
    n = rl_endpoint_redact("abcdef", 6, small, 3);
    CHECK(n == 2 && strcmp(small, "..") == 0, "buflen 3: '%s'", small);
    small[0] = 'x';
    n = rl_endpoint_redact("abc", 3, small, 0);
    CHECK(n == 0 && small[0] == 'x', "buflen 0 wrote");
    /* exactly fits: not cut */
    n = rl_endpoint_redact("abcdefg", 7, small, sizeof small);
    CHECK(n == 7 && strcmp(small, "abcdefg") == 0, "fits: '%s'", small);
}

/* Whatever the buffer size, no byte of a secret is written. */
UNIT_TEST(test_redact_never_shows_secret)
{
    static const char *const specs[] = {
        "redis://:XSECRETX@host:6379",
        "rediss://user:XSECRETX@h",
        "valkey://:XSECRETX@host:6379",
        "valkeys://user:XSECRETX@h/1",
        "valkey:/:XSECRETX@h",
        "tcp://h:1?password=XSECRETX",
        "tcp://h:1?auth=XSECRETX#XSECRETX",
        "tcp://h:1#XSECRETX",
        "redis://u:XSEC?RETX@h",
        "redis://u:XSEC#RETX@h",
        "redis://u:XSEC@RETX@h",
        "redis://u:XSEC/RETX@h?x",
        "XSECRETX@h",
        "h:1?a=b@c&p=XSECRETX",
    };
    char buf[RL_REDACT_BUFLEN];
    size_t i, b;
    for (i = 0; i < sizeof specs / sizeof *specs; i++) {
        for (b = 0; b <= sizeof buf; b++) {
            rl_endpoint_redact(specs[i], strlen(specs[i]), buf, b);
            if (b > 0) {
                CHECK(strchr(buf, 'X') == NULL && strstr(buf, "SEC") == NULL && strstr(buf, "RET") == NULL,
                      "'%s' in %zu bytes shows '%s'", specs[i], b, buf);
            }
        }
    }
}
