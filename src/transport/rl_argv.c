#include "rl_argv.h"
#include <stdio.h>
#include <string.h>

void rl_argv_add(rl_argv *b, const char *s, size_t len)
{
    if (b->argc < RL_ARGV_MAX) { /* RL_ARGV_MAX holds the longest command: never false */
        b->argv[b->argc] = s;
        b->lens[b->argc++] = len;
    }
}

void rl_argv_add_str(rl_argv *b, const char *s)
{
    rl_argv_add(b, s, strlen(s));
}

void rl_argv_add_num(rl_argv *b, long long v)
{
    char *buf;
    if (b->nnums == RL_ARGV_NUMS) { /* no command has as many numbers: never true */
        return;
    }
    buf = b->nums[b->nnums++];
    rl_argv_add(b, buf, (size_t)snprintf(buf, sizeof b->nums[0], "%lld", v));
}

int rl_argv_append(rl_conn *c, rl_argv *b, int64_t now_us)
{
    return rl_conn_append(c, b->argc, b->argv, b->lens, now_us);
}
