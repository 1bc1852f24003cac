#include "rl_url.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *msg)
{
    snprintf(err, errlen, "%s", msg);
    return -1;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Percent-decodes s[0..len) into a new string at *field. 0, -1 malformed
 * (a bad %XX, or a NUL byte), -2 out of memory. */
static int decode(const char *s, size_t len, char **field)
{
    char *out = malloc(len + 1);
    size_t i, n = 0;

    if (out == NULL) {
        return -2;
    }
    for (i = 0; i < len; i++) {
        char c = s[i];
        if (c == '%') {
            int hi = i + 2 < len ? hex_digit(s[i + 1]) : -1;
            int lo = i + 2 < len ? hex_digit(s[i + 2]) : -1;
            if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
                memset(out, 0, n);
                free(out);
                return -1;
            }
            c = (char)(hi * 16 + lo);
            i += 2;
        }
        out[n++] = c;
    }
    out[n] = '\0';
    free(*field);
    *field = out;
    return 0;
}

static int parse_database(const char *s, size_t len, rl_endpoint *out, char *err, size_t errlen)
{
    long long v = 0;
    size_t i;
    if (len == 0) {
        return 0; /* "host/" : no database given */
    }
    for (i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9' || i >= 10) {
            return fail(err, errlen, "the path must be a database number from 0 to 2147483647");
        }
        v = v * 10 + (s[i] - '0');
    }
    if (v > INT_MAX) {
        return fail(err, errlen, "the path must be a database number from 0 to 2147483647");
    }
    out->database = (long)v;
    out->from_address |= RL_EP_DATABASE;
    return 0;
}

/* "user:password" or ":password"; the password may hold ':' too. */
static int parse_userinfo(const char *scheme, const char *s, size_t len, rl_endpoint *out, char *err, size_t errlen)
{
    const char *colon = memchr(s, ':', len);
    size_t user_len;
    int rc;

    if (colon == NULL) {
        snprintf(err, errlen,
                 "user-info without ':' is ambiguous: write %s://:password@host or "
                 "%s://user:password@host",
                 scheme, scheme);
        return -1;
    }
    user_len = (size_t)(colon - s);
    if (len - user_len - 1 == 0) {
        return fail(err, errlen, "the password in the URL is empty");
    }
    rc = decode(colon + 1, len - user_len - 1, &out->password);
    if (rc == 0 && user_len > 0) {
        rc = decode(s, user_len, &out->username);
        out->from_address |= RL_EP_USERNAME;
    }
    if (rc == -2) {
        return fail(err, errlen, "out of memory");
    }
    if (rc != 0) {
        return fail(err, errlen, "malformed percent-encoding (or an encoded NUL) in the user-info");
    }
    out->from_address |= RL_EP_PASSWORD;
    return 0;
}

int rl_url_parse(const char *scheme, const char *s, size_t len, int tls, rl_endpoint *out, char *err, size_t errlen)
{
    const char *at = NULL, *p, *slash, *end = s + len;

    out->tls = tls;
    /* The last '@' ends the user-info: a password written raw may hold '@', '/' or '?'. */
    for (p = s; p < end; p++) {
        if (*p == '@') {
            at = p;
        }
    }
    if (at != NULL) {
        if (parse_userinfo(scheme, s, (size_t)(at - s), out, err, errlen) != 0) {
            return -1;
        }
        s = at + 1;
    }
    if (memchr(s, '?', (size_t)(end - s)) || memchr(s, '#', (size_t)(end - s))) {
        return fail(err, errlen, "URL query parameters are not supported: give settings in the options array");
    }
    slash = memchr(s, '/', (size_t)(end - s));
    if (rl_endpoint_parse_hostport(s, (size_t)((slash ? slash : end) - s), out, err, errlen) != 0) {
        return -1;
    }
    return slash ? parse_database(slash + 1, (size_t)(end - slash - 1), out, err, errlen) : 0;
}
