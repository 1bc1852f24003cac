/* A command's arguments, gathered before it is formatted into a
 * connection's output buffer. Every family of commands (lock, handshake,
 * topology) builds its commands with it. */
#ifndef RL_ARGV_H
#define RL_ARGV_H
#include <stddef.h>
#include <stdint.h>
#include "rl_conn.h"

/* The longest command: EVALSHA, sha, numkeys, 1 + 19 keys, up to 7 ARGV: 30. */
#define RL_ARGV_MAX 40
#define RL_ARGV_NUMS 6 /* numbers written as text, each kept here */

typedef struct rl_argv {
    const char *argv[RL_ARGV_MAX];
    size_t lens[RL_ARGV_MAX];
    int argc;
    char nums[RL_ARGV_NUMS][24];
    int nnums;
} rl_argv;

/* Adds len bytes of s (not copied: s outlives the append). */
void rl_argv_add(rl_argv *b, const char *s, size_t len);

/* Adds a NUL-terminated string. */
void rl_argv_add_str(rl_argv *b, const char *s);

/* Adds v in decimal. */
void rl_argv_add_num(rl_argv *b, long long v);

/* Appends the command to c's output buffer (rl_conn_append). 0 or RL_E_NOMEM. */
int rl_argv_append(rl_conn *c, rl_argv *b, int64_t now_us);

#endif
