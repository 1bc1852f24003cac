#include "rl_sentinel.h"
#include "../base/rl_status.h"
#include "../transport/rl_host.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>

static int bulk_or_status(const redisReply *r)
{
    return r != NULL && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS);
}

int rl_sentinel_judge_master(const void *reply, rl_sentinel_addr *out, char *err, size_t errlen)
{
    const redisReply *r = reply, *host, *port;
    char digits[8];
    char *end;
    long p;

    memset(out, 0, sizeof *out);
    if (r->type == REDIS_REPLY_NIL) {
        snprintf(err, errlen, "does not know this service");
        return RL_SENTINEL_NO;
    }
    if (r->type == REDIS_REPLY_ERROR) {
        snprintf(err, errlen, "%.*s", (int)r->len, r->str);
        return RL_SENTINEL_BAD;
    }
    if (r->type != REDIS_REPLY_ARRAY || r->elements != 2) {
        snprintf(err, errlen, "not a 2-element array (a reply of type %d)", r->type);
        return RL_SENTINEL_BAD;
    }
    host = r->element[0];
    port = r->element[1];
    if (!bulk_or_status(host) || !bulk_or_status(port)) {
        snprintf(err, errlen, "host and port are not strings");
        return RL_SENTINEL_BAD;
    }
    /* a host a user could give too (the one host rule), that fits out->host */
    if (host->len >= sizeof out->host || rl_host_check(host->str, host->len, NULL) != RL_HOST_OK) {
        snprintf(err, errlen, "not a host name or address (%zu bytes)", (size_t)host->len);
        return RL_SENTINEL_BAD;
    }
    if (port->len == 0 || port->len >= sizeof digits) {
        snprintf(err, errlen, "not a port");
        return RL_SENTINEL_BAD;
    }
    memcpy(digits, port->str, port->len);
    digits[port->len] = '\0';
    p = strtol(digits, &end, 10);
    if (*end != '\0' || digits[0] < '0' || digits[0] > '9' || p < 1 || p > 65535) {
        snprintf(err, errlen, "not a port");
        return RL_SENTINEL_BAD;
    }
    memcpy(out->host, host->str, host->len);
    out->host[host->len] = '\0';
    out->port = (int)p;
    return RL_SENTINEL_OK;
}

int rl_sentinel_judge_role(const void *reply, char *err, size_t errlen)
{
    const redisReply *r = reply, *role;

    if (r->type == REDIS_REPLY_ERROR) {
        snprintf(err, errlen, "%.*s", (int)r->len, r->str);
        return RL_SENTINEL_BAD;
    }
    if (r->type != REDIS_REPLY_ARRAY || r->elements < 1 || !bulk_or_status(r->element[0])) {
        snprintf(err, errlen, "ROLE: not an array starting with a role (a reply of type %d)", r->type);
        return RL_SENTINEL_BAD;
    }
    role = r->element[0];
    if (role->len == 6 && memcmp(role->str, "master", 6) == 0) {
        return RL_SENTINEL_OK;
    }
    if ((role->len == 5 && memcmp(role->str, "slave", 5) == 0)
        || (role->len == 7 && memcmp(role->str, "replica", 7) == 0)
        || (role->len == 8 && memcmp(role->str, "sentinel", 8) == 0)) {
        snprintf(err, errlen, "ROLE says %.*s, not master", (int)role->len, role->str);
        return RL_SENTINEL_NO;
    }
    snprintf(err, errlen, "ROLE: unknown role (%zu bytes)", (size_t)role->len);
    return RL_SENTINEL_BAD;
}

int rl_sentinel_failover_sign(int status, const char *err)
{
    switch (status) {
    case RL_E_CONNECT:
    case RL_E_TIMEOUT:
    case RL_E_IO:
        return 1;
    case RL_E_REPLY:
        /* READONLY: we wrote to a replica; UNBLOCKED: our WAIT was cut
         * short because the master was just made a replica */
        return err != NULL && (strncmp(err, "READONLY", 8) == 0 || strstr(err, "UNBLOCKED") != NULL);
    }
    return 0;
}

static size_t put(char *buf, size_t cap, size_t at, const char *s, size_t len)
{
    char head[24];
    int hl = snprintf(head, sizeof head, "%zu:", len);
    size_t i;
    for (i = 0; i < (size_t)hl; i++, at++) {
        if (at < cap) {
            buf[at] = head[i];
        }
    }
    for (i = 0; i < len; i++, at++) {
        if (at < cap) {
            buf[at] = s[i];
        }
    }
    return at;
}

size_t rl_sentinel_cache_key(const char *service, const char *const *sentinels, size_t n, char *buf, size_t cap)
{
    size_t i, at = put(buf, cap, 0, service, strlen(service));
    for (i = 0; i < n; i++) {
        at = put(buf, cap, at, sentinels[i], strlen(sentinels[i]));
    }
    return at;
}
