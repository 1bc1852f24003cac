#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include "rl_endpoint_parse.h"
#include "rl_url.h"
#include <stdio.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *msg)
{
    snprintf(err, errlen, "%s", msg);
    return -1;
}

static int parse_unix(const char *path, size_t len, rl_endpoint *out, char *err, size_t errlen)
{
    if (len == 0 || path[0] != '/') {
        return fail(err, errlen, "unix socket path must be absolute, as in unix:///run/redis.sock");
    }
    return rl_endpoint_set_str(&out->unix_path, path, len) == 0 ? 0 : fail(err, errlen, "out of memory");
}

/* The URL schemes (src/transport/rl_url.c): Valkey's are Redis's. */
static const struct {
    const char *name;
    int tls;
} url_schemes[] = {{"redis", 0}, {"rediss", 1}, {"valkey", 0}, {"valkeys", 1}};

#define SCHEMES "tcp://, tls://, unix://, redis://, rediss://, valkey:// or valkeys://"

/* "redis:/host", "valkeys:host:1", "tls:/h": a scheme of ours and a ':'
 * without the "//", a slip; "valkey:6380" is a host named valkey and its
 * port (after a host's ':' come digits only). unix: is left out:
 * "unix:/path" is a form of its own. */
static int scheme_without_slashes(const char *spec, size_t len)
{
    static const char *const names[] = {"redis:", "rediss:", "valkey:", "valkeys:", "tcp:", "tls:"};
    size_t i, j;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        if (len > n && memcmp(spec, names[i], n) == 0) {
            for (j = n; j < len && spec[j] >= '0' && spec[j] <= '9'; j++) {
            }
            return j < len;
        }
    }
    return 0;
}

static int parse_any(const char *spec, size_t len, rl_endpoint *out, char *err, size_t errlen)
{
    size_t i;

    memset(out, 0, sizeof *out);
    if (len == 0) {
        return fail(err, errlen, "server address is empty");
    }
    if (memchr(spec, '\0', len)) {
        return fail(err, errlen, "server address contains a NUL byte");
    }
    if (len >= 7 && memcmp(spec, "unix://", 7) == 0) {
        return parse_unix(spec + 7, len - 7, out, err, errlen);
    }
    if (len >= 5 && memcmp(spec, "unix:", 5) == 0) {
        return parse_unix(spec + 5, len - 5, out, err, errlen);
    }
    for (i = 0; i < sizeof url_schemes / sizeof url_schemes[0]; i++) {
        size_t n = strlen(url_schemes[i].name);
        if (len >= n + 3 && memcmp(spec, url_schemes[i].name, n) == 0 && memcmp(spec + n, "://", 3) == 0) {
            return rl_url_parse(url_schemes[i].name, spec + n + 3, len - n - 3, url_schemes[i].tls, out, err, errlen);
        }
    }
    if (len >= 6 && memcmp(spec, "tcp://", 6) == 0) {
        spec += 6;
        len -= 6;
    } else if (len >= 6 && memcmp(spec, "tls://", 6) == 0) {
        spec += 6;
        len -= 6;
        out->tls = 1;
        return rl_endpoint_parse_hostport(spec, len, out, err, errlen);
    } else if (memmem(spec, len, "://", 3) != NULL) {
        return fail(err, errlen, "unknown scheme, expected " SCHEMES);
    } else if (scheme_without_slashes(spec, len)) {
        return fail(err, errlen, "malformed URL: write the scheme with \"://\" (" SCHEMES ")");
    }
    if (len > 0 && spec[0] == '/') {
        return parse_unix(spec, len, out, err, errlen);
    }
    return rl_endpoint_parse_hostport(spec, len, out, err, errlen);
}

int rl_endpoint_parse(const char *spec, size_t len, rl_endpoint *out, char *err, size_t errlen)
{
    int rc = parse_any(spec, len, out, err, errlen);
    if (rc != 0) {
        rl_endpoint_clear(out); /* a failed parse leaves nothing behind (e.g. a host before a bad path) */
    }
    return rc;
}
