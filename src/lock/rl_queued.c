#include "rl_queued.h"
#include "../base/rl_token.h"
#include <stdio.h>
#include <string.h>
#include <hiredis/hiredis.h>

int rl_queued_format(const void *id_reply, const void *holder_reply, char *text, size_t textlen)
{
    const redisReply *id = id_reply, *holder = holder_reply;
    if (id->type != REDIS_REPLY_STRING || id->len == 0 || id->len >= RL_WAKE_ID_MAX
        || memchr(id->str, '\0', id->len) != NULL || memchr(id->str, ' ', id->len) != NULL
        || holder->type != REDIS_REPLY_STRING || holder->len > RL_NAMED_TOKEN_MAX
        || id->len + 1 + holder->len >= textlen) {
        return -1;
    }
    snprintf(text, textlen, "%.*s %.*s", (int)id->len, id->str, (int)holder->len, holder->str);
    return 0;
}

void rl_queued_parse(const char *msg, char id[RL_WAKE_ID_MAX], const char **holder, size_t *holder_len)
{
    size_t n = strcspn(msg, " ");
    if (n >= RL_WAKE_ID_MAX) {
        n = 0;
    }
    memcpy(id, msg, n);
    id[n] = '\0';
    *holder = msg[n] == ' ' ? msg + n + 1 : msg + n;
    *holder_len = strlen(*holder);
}
