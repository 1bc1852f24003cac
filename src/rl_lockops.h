/* The lock commands: how each is written to a node and how its reply
 * counts as a vote. Split so one poll loop can drive one node or many. */
#ifndef RL_LOCKOPS_H
#define RL_LOCKOPS_H
#include <stddef.h>
#include "rl_conn.h"

typedef enum rl_op_kind {
    RL_OP_LOCK,      /* SET key token NX PX ttl */
    RL_OP_UNLOCK,    /* delete key if it holds token, wake the next waiter (Lua) */
    RL_OP_EXTEND,    /* set key's TTL to ttl if it holds token (Lua) */
    RL_OP_LOCK_WAIT, /* take key, or queue waiter and say the PTTL (Lua) */
    RL_OP_WAKE_WAIT, /* BLPOP the waiter's own wake list for wait_ms */
    RL_OP_LEAVE      /* take waiter out of key's queue (Lua) */
} rl_op_kind;

typedef struct rl_op {
    rl_op_kind kind;
    const char *key;
    size_t key_len;
    const char *token;
    size_t token_len;
    long long ttl_ms;
    const char *waiter;  /* LOCK_WAIT, WAKE_WAIT, LEAVE: the waiter's id */
    size_t waiter_len;
    long long wait_ms;   /* LOCK_WAIT: how long the waiter waits; WAKE_WAIT: block for */
    int enqueue;         /* LOCK_WAIT: queue the waiter when the lock is held */
} rl_op;

typedef enum rl_send_form {
    RL_FORM_FIRST,  /* SET NX PX, or EVALSHA */
    RL_FORM_EVAL,   /* EVAL after NOSCRIPT (it also caches the script again) */
    RL_FORM_RETRY,  /* after a connection lost mid-command: a form that is
                       safe to repeat, so a lock we may already hold counts
                       as ours instead of as taken */
    RL_FORM_RETRY_EVAL
} rl_send_form;

/* Appends op to c's output buffer in the given form. 0 or RL_E_NOMEM. */
int rl_op_append(rl_conn *c, const rl_op *op, rl_send_form form, int64_t now_us);

/* Outcome of one reply to op. */
#define RL_REPLY_YES 1
#define RL_REPLY_NO 0
#define RL_REPLY_NOSCRIPT 2   /* script cache empty: resend in an EVAL form */
#define RL_REPLY_ERROR 3      /* err holds the server's message */
#define RL_REPLY_NOAUTH 4     /* server wants AUTH: err holds its message */

/* Reads a reply (redisReply *) to op; *value gets an integer reply (the
 * PTTL for LOCK_WAIT). */
int rl_op_judge(const rl_op *op, const void *reply, long long *value, char *err, size_t errlen);

/* Appends the login commands (AUTH, SELECT) a fresh connection needs;
 * returns how many replies they owe (0: none needed) or -1 when out of memory. */
int rl_handshake_append(rl_conn *c, int64_t now_us);

#endif
