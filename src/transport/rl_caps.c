#include "rl_caps.h"
#include <string.h>
#include <stdio.h>
#include <strings.h>
#include <hiredis/hiredis.h>

void rl_caps_forget(rl_caps *caps)
{
    caps->msetex = caps->delex = caps->delifeq = -1;
    caps->evict = RL_EVICT_UNKNOWN;
    caps->evict_policy[0] = '\0';
    caps->scripts = -1;
    caps->scripts_refusal[0] = '\0';
}

static int named(const redisReply *e, const char *name)
{
    size_t n = strlen(name);
    return e != NULL && (e->type == REDIS_REPLY_STRING || e->type == REDIS_REPLY_STATUS) && e->str != NULL
           && e->len == n && strncasecmp(e->str, name, n) == 0;
}

void rl_caps_from_commands(rl_caps *caps, const void *reply)
{
    const redisReply *r = reply;
    size_t i;

    caps->msetex = caps->delex = caps->delifeq = 0;
    if (r == NULL || r->type != REDIS_REPLY_ARRAY || r->element == NULL) {
        return;
    }
    for (i = 0; i < r->elements; i++) {
        caps->msetex |= named(r->element[i], "msetex");
        caps->delex |= named(r->element[i], "delex");
        caps->delifeq |= named(r->element[i], "delifeq");
    }
}

int rl_caps_scripts_refused(const char *err, size_t len)
{
    /* the command named right after the server's lead-in: 'eval',
     * 'evalsha', 'eval_ro', 'script' (a script's own error reads "ERR
     * user_script:..." or "ERR Error running script") */
    static const char *const leads[] = {"ERR unknown command ", "run the "};
    static const char *const names[] = {"'eval'", "'evalsha'", "'eval_ro'", "'evalsha_ro'", "'script'"};
    static const char no_engine[] = "ERR Could not find scripting engine"; /* Valkey 9.1+ without its Lua module */
    size_t i, j, at = 0, n;

    if (len >= sizeof no_engine - 1 && strncmp(err, no_engine, sizeof no_engine - 1) == 0) {
        return 1;
    }
    if (len >= 6 && strncmp(err, "NOPERM", 6) == 0) {
        for (at = 6; at + 8 <= len && strncmp(err + at, leads[1], 8) != 0; at++) {
        }
        at += 8;
    } else if (len >= 20 && strncmp(err, leads[0], 20) == 0) {
        at = 20;
    } else {
        return 0;
    }
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        n = strlen(names[i]);
        if (at + n > len) {
            continue;
        }
        for (j = 0; j < n; j++) {
            char c = err[at + j];
            if ((c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c) != names[i][j]) {
                break;
            }
        }
        if (j == n) {
            return 1;
        }
    }
    return 0;
}

size_t rl_caps_refusal_shown(const char *err, size_t len)
{
    /* the server's words up to their echo of the arguments (a key, a token) */
    static const char args[] = ", with args";
    size_t i;
    for (i = 0; i + sizeof args - 1 <= len; i++) {
        if (memcmp(err + i, args, sizeof args - 1) == 0) {
            return i;
        }
    }
    return len;
}

void rl_caps_from_script_probe(rl_caps *caps, const void *reply)
{
    const redisReply *r = reply;

    caps->scripts = -1;
    caps->scripts_refusal[0] = '\0';
    if (r == NULL || r->type != REDIS_REPLY_ERROR || r->str == NULL) {
        return; /* no answer a probe of a script nobody loaded gets: not known */
    }
    if (r->len >= 8 && strncmp(r->str, "NOSCRIPT", 8) == 0) {
        caps->scripts = 1;
    } else if (rl_caps_scripts_refused(r->str, r->len)) {
        size_t n = rl_caps_refusal_shown(r->str, r->len);
        caps->scripts = 0;
        snprintf(caps->scripts_refusal, sizeof caps->scripts_refusal, "%.*s", (int)n, r->str);
    }
}

int rl_caps_cannot_release(const rl_caps *caps)
{
    return caps->scripts == 0 && caps->delex != 1 && caps->delifeq != 1;
}

void rl_caps_from_probe(rl_caps *caps, rl_probe which, const void *reply)
{
    switch (which) {
    case RL_PROBE_COMMANDS:
        rl_caps_from_commands(caps, reply);
        break;
    case RL_PROBE_EVICT:
        caps->evict = rl_evict_judge(reply, caps->evict_policy, sizeof caps->evict_policy);
        break;
    case RL_PROBE_SCRIPTS:
        rl_caps_from_script_probe(caps, reply);
        break;
    default:
        break;
    }
}
