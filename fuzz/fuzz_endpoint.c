/* libFuzzer target: rl_endpoint_parse on arbitrary bytes (not NUL
 * terminated), then rl_endpoint_describe, copy and clear on what it took.
 * Checks: a parsed endpoint is tcp (host, port 1..65535) or unix (absolute
 * path), never both; describe never shows the password, always terminates
 * its output, and what it says never reads back as another endpoint; an
 * error comes with a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/transport/rl_endpoint_parse.h"

#define REQUIRE(cond) do { if (!(cond)) { fprintf(stderr, "violated: %s\n", #cond); abort(); } } while (0)

static int same(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char password[] = "\x7fpw-not-shown\x7f";
    rl_endpoint ep, copy, back;
    char err[160], name[300], small[8], err2[160];
    size_t n;

    err[0] = '\0';
    if (rl_endpoint_parse((const char *)data, size, &ep, err, sizeof err) != 0) {
        REQUIRE(err[0] != '\0');
        REQUIRE(ep.host == NULL && ep.unix_path == NULL);
        rl_endpoint_clear(&ep);
        return 0;
    }
    REQUIRE((ep.host != NULL) != (ep.unix_path != NULL));
    if (ep.host) {
        REQUIRE(ep.host[0] != '\0' && ep.port >= 1 && ep.port <= 65535);
    } else {
        REQUIRE(ep.unix_path[0] == '/');
    }

    REQUIRE(rl_endpoint_set_str(&ep.username, "user", 4) == 0);
    REQUIRE(rl_endpoint_set_str(&ep.password, password, sizeof password - 1) == 0);
    REQUIRE(rl_endpoint_copy(&copy, &ep) == 0);
    REQUIRE(same(copy.host, ep.host) && same(copy.unix_path, ep.unix_path) && copy.port == ep.port
            && same(copy.password, ep.password));

    rl_endpoint_describe(&copy, name, sizeof name);
    n = strnlen(name, sizeof name);
    REQUIRE(n < sizeof name);
    if (!(ep.host && strstr(ep.host, password)) && !(ep.unix_path && strstr(ep.unix_path, password))) {
        REQUIRE(strstr(name, password) == NULL);
    }
    for (n = 0; n <= sizeof small; n++) { /* truncated into a small buffer: terminated, no overflow */
        memset(small, 'z', sizeof small);
        rl_endpoint_describe(&copy, small, n);
        REQUIRE(n == 0 || memchr(small, '\0', n) != NULL);
    }

    /* What describe says never names another endpoint: read back, it either
     * is no address (host "unix" is described "unix:6379"; a unix path
     * beginning "//" as "unix://...", read as relative) or the same one (a
     * unix path up to its leading slashes: "///x" reads back as "/x"). */
    if (strlen(name) < sizeof name - 1) {
        err2[0] = '\0';
        if (rl_endpoint_parse(name, strlen(name), &back, err2, sizeof err2) == 0) {
            if (ep.unix_path) {
                REQUIRE(back.unix_path && strcmp(back.unix_path + strspn(back.unix_path, "/"),
                                                 ep.unix_path + strspn(ep.unix_path, "/")) == 0);
            } else {
                REQUIRE(same(back.host, ep.host) && back.port == ep.port);
            }
        } else {
            REQUIRE(err2[0] != '\0');
        }
        rl_endpoint_clear(&back);
    }
    rl_endpoint_clear(&copy);
    rl_endpoint_clear(&ep);
    REQUIRE(ep.host == NULL && ep.password == NULL);
    return 0;
}
