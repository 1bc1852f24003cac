#include "rl_handshake.h"
#include "rl_argv.h"
#include "../base/rl_status.h"
#include <stdio.h>
#include <string.h>
#include <hiredis/hiredis.h>

int rl_handshake_append(rl_conn *c, int64_t now_us)
{
    rl_argv b = {.argc = 0};
    int n = 0;

    if (c->ep.password) {
        rl_argv_add(&b, "AUTH", 4);
        /* "default" is the user a password alone logs in as, and Redis
         * before 6 (no ACLs) refuses a user name: it is not sent */
        if (c->ep.username && strcmp(c->ep.username, "default") != 0) {
            rl_argv_add_str(&b, c->ep.username);
        }
        rl_argv_add_str(&b, c->ep.password);
        if (rl_argv_append(c, &b, now_us) != 0) {
            return -1;
        }
        n++;
    }
    if (c->ep.database != 0) {
        b.argc = b.nnums = 0;
        rl_argv_add(&b, "SELECT", 6);
        rl_argv_add_num(&b, c->ep.database);
        if (rl_argv_append(c, &b, now_us) != 0) {
            return -1;
        }
        n++;
    }
    return n;
}

static char lib_version[32];

void rl_handshake_set_version(const char *version)
{
    /* a version with a space or a newline would be refused, or worse */
    size_t n = strcspn(version, " \r\n");
    snprintf(lib_version, sizeof lib_version, "%.*s", (int)n, version);
}

int rl_identify_append(rl_conn *c, int64_t now_us)
{
    rl_argv b = {.argc = 0};
    int i;
    rl_argv_add(&b, "CLIENT", 6);
    rl_argv_add(&b, "SETINFO", 7);
    rl_argv_add(&b, "LIB-NAME", 8);
    rl_argv_add(&b, "redislock", 9);
    if (rl_argv_append(c, &b, now_us) != 0) {
        return -1;
    }
    int n = 1;
    if (lib_version[0] != '\0') {
        b.argc = 0;
        rl_argv_add(&b, "CLIENT", 6);
        rl_argv_add(&b, "SETINFO", 7);
        rl_argv_add(&b, "LIB-VER", 7);
        rl_argv_add_str(&b, lib_version);
        if (rl_argv_append(c, &b, now_us) != 0) {
            return -1;
        }
        n++;
    }
    /* which of MSETEX (lockMany()'s first form), DELEX and DELIFEQ (the
     * release's compare-and-delete) the server has (rl_caps.h). Its reply is
     * read among the discards (rl_conn.c): a flat list of names, unlike
     * COMMAND INFO's, which nests deeper than a lock reply may */
    b.argc = 0;
    rl_argv_add(&b, "COMMAND", 7);
    rl_argv_add(&b, "LIST", 4);
    rl_argv_add(&b, "FILTERBY", 8);
    rl_argv_add(&b, "PATTERN", 7);
    rl_argv_add_str(&b, RL_CAPS_PATTERN);
    if (rl_argv_append(c, &b, now_us) != 0) {
        return -1;
    }
    /* can the server evict lock keys? (CONFIG GET maxmemory*: maxmemory
     * and maxmemory-policy among a few more pairs, a flat array; refused
     * by an ACL without +config or a renamed CONFIG: not known) */
    b.argc = 0;
    rl_argv_add(&b, "CONFIG", 6);
    rl_argv_add(&b, "GET", 3);
    rl_argv_add(&b, "maxmemory*", 10);
    if (rl_argv_append(c, &b, now_us) != 0) {
        return -1;
    }
    /* does the server run scripts? (EVALSHA of a SHA1 no script has:
     * NOSCRIPT where scripts are allowed, nothing run; a refusal where an
     * ACL lacks @scripting or the server has no Lua: a lock taken there
     * could be released only natively, rl_caps_cannot_release()) */
    b.argc = 0;
    rl_argv_add(&b, "EVALSHA", 7);
    rl_argv_add_str(&b, RL_CAPS_NO_SCRIPT_SHA);
    rl_argv_add(&b, "0", 1);
    if (rl_argv_append(c, &b, now_us) != 0) {
        return -1;
    }
    for (i = 0; i < RL_PROBE_COUNT; i++) {
        c->probe_in[i] = c->discard + n + i; /* the caller owes these n + RL_PROBE_COUNT replies as discards */
    }
    return n + RL_PROBE_COUNT;
}

int rl_handshake_judge(const rl_conn *c, int nth, const void *reply, char *err, size_t errlen)
{
    const redisReply *r = reply;
    int auth = nth == 0 && c->ep.password != NULL; /* AUTH, when sent, goes first */

    if (r->type != REDIS_REPLY_ERROR) {
        return 0;
    }
    snprintf(err, errlen, "%s refused: %.*s", auth ? "AUTH" : "SELECT", (int)r->len, r->str);
    return auth ? RL_E_AUTH : RL_E_REPLY;
}

int rl_reply_wants_login(const void *reply, char *err, size_t errlen)
{
    const redisReply *r = reply;

    if (r->type != REDIS_REPLY_ERROR) {
        return 0;
    }
    if (strncmp(r->str, "NOAUTH", 6) == 0 || strncmp(r->str, "WRONGPASS", 9) == 0) {
        return 1;
    }
    if (strstr(r->str, "Protocol error: unauthenticated") != NULL) {
        snprintf(err, errlen, "NOAUTH Authentication required.");
        return 1;
    }
    return 0;
}
