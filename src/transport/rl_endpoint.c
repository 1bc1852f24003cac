#include "rl_endpoint.h"
#include "rl_host.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int rl_endpoint_set_str(char **field, const char *s, size_t len)
{
    char *copy = NULL;
    if (s != NULL) {
        copy = malloc(len + 1);
        if (copy == NULL) {
            return -1;
        }
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    free(*field);
    *field = copy;
    return 0;
}

static int parse_port(const char *s, size_t len, int *port)
{
    long v = 0;
    size_t i;
    if (len == 0 || len > 5) {
        return -1;
    }
    for (i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return -1;
        }
        v = v * 10 + (s[i] - '0');
    }
    if (v < 1 || v > 65535) {
        return -1;
    }
    *port = (int)v;
    return 0;
}

static int fail(char *err, size_t errlen, const char *msg)
{
    snprintf(err, errlen, "%s", msg);
    return -1;
}

int rl_endpoint_parse_hostport(const char *s, size_t len, rl_endpoint *out, char *err, size_t errlen)
{
    const char *host = s, *colon, *why;
    size_t host_len;
    rl_host_fault fault;

    if (len > 0 && s[0] == '[') { /* [v6addr]:port */
        const char *close = memchr(s, ']', len);
        if (close == NULL || close == s + 1) {
            return fail(err, errlen, "malformed IPv6 address, expected [addr]:port");
        }
        host = s + 1;
        host_len = (size_t)(close - host);
        colon = close + 1 < s + len ? close + 1 : NULL;
        if (colon != NULL && *colon != ':') {
            return fail(err, errlen, "expected ':' after ']'");
        }
    } else {
        colon = memchr(s, ':', len);
        host_len = colon ? (size_t)(colon - s) : len;
        if (colon && memchr(colon + 1, ':', len - (size_t)(colon + 1 - s))) {
            return fail(err, errlen, "IPv6 addresses must be written as [addr]:port");
        }
    }
    fault = rl_host_check(host, host_len, &why);
    if (fault == RL_HOST_SHOWS_SECRET) { /* "pw@host", "host?password=pw": the user meant credentials */
        snprintf(err, errlen, "%s; give credentials in the options \"username\" and \"password\"", why);
        return -1;
    }
    if (fault != RL_HOST_OK) {
        return fail(err, errlen, why);
    }
    out->port = RL_DEFAULT_PORT;
    if (colon != NULL) {
        if (parse_port(colon + 1, len - (size_t)(colon + 1 - s), &out->port) != 0) {
            return fail(err, errlen, "port must be a number from 1 to 65535");
        }
    }
    return rl_endpoint_set_str(&out->host, host, host_len) == 0 ? 0 : fail(err, errlen, "out of memory");
}

int rl_endpoint_copy(rl_endpoint *dst, const rl_endpoint *src)
{
    memset(dst, 0, sizeof *dst);
    dst->port = src->port;
    dst->database = src->database;
    dst->tls = src->tls;
    dst->tls_ctx = src->tls_ctx;
    dst->tls_key = src->tls_key;
    dst->tls_key_len = src->tls_key_len;
    dst->from_address = src->from_address;
    if ((src->host && rl_endpoint_set_str(&dst->host, src->host, strlen(src->host)))
        || (src->unix_path && rl_endpoint_set_str(&dst->unix_path, src->unix_path, strlen(src->unix_path)))
        || (src->username && rl_endpoint_set_str(&dst->username, src->username, strlen(src->username)))
        || (src->password && rl_endpoint_set_str(&dst->password, src->password, strlen(src->password)))) {
        rl_endpoint_clear(dst);
        return -1;
    }
    return 0;
}

void rl_endpoint_clear(rl_endpoint *ep)
{
    free(ep->host);
    free(ep->unix_path);
    free(ep->username);
    if (ep->password) {
        memset(ep->password, 0, strlen(ep->password));
        free(ep->password);
    }
    memset(ep, 0, sizeof *ep);
}

void rl_endpoint_describe(const rl_endpoint *ep, char *buf, size_t len)
{
    int full;
    if (len == 0) {
        return;
    }
    if (ep->unix_path) {
        full = snprintf(buf, len, "unix:%s", ep->unix_path);
    } else if (ep->host && strchr(ep->host, ':')) {
        full = snprintf(buf, len, "[%s]:%d", ep->host, ep->port);
    } else {
        full = snprintf(buf, len, "%s:%d", ep->host ? ep->host : "?", ep->port);
    }
    if (full >= 0 && (size_t)full >= len && len >= 4) {
        memcpy(buf + len - 4, "...", 4); /* cut visibly, never silently */
    }
}

int rl_endpoint_same_node(const rl_endpoint *a, const rl_endpoint *b)
{
    if (a->unix_path || b->unix_path) {
        return a->unix_path && b->unix_path && strcmp(a->unix_path, b->unix_path) == 0;
    }
    return a->host && b->host && a->port == b->port && strcasecmp(a->host, b->host) == 0;
}

/* Both absent, or both the same bytes. */
static int same_str(const char *a, const char *b)
{
    return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

int rl_endpoint_same_connection(const rl_endpoint *a, const rl_endpoint *b)
{
    return rl_endpoint_same_node(a, b) && same_str(a->host, b->host) && a->tls == b->tls
           && (a->tls_key == NULL) == (b->tls_key == NULL) && a->tls_key_len == b->tls_key_len
           && (a->tls_key_len == 0 || memcmp(a->tls_key, b->tls_key, a->tls_key_len) == 0) && a->database == b->database
           && same_str(a->username, b->username) && same_str(a->password, b->password);
}

void rl_endpoints_free(rl_endpoint *eps, size_t n)
{
    size_t i;
    for (i = 0; eps != NULL && i < n; i++) {
        rl_endpoint_clear(&eps[i]);
    }
    free(eps);
}
