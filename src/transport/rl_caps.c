#include "rl_caps.h"
#include <string.h>
#include <strings.h>
#include <hiredis/hiredis.h>

void rl_caps_forget(rl_caps *caps)
{
    caps->msetex = caps->delex = caps->delifeq = -1;
    caps->evict = RL_EVICT_UNKNOWN;
    caps->evict_policy[0] = '\0';
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
