/* The operator's reads of the lock family (the redislock command,
 * inspect() and locks()): the replies of INSPECT (one resource's state,
 * read-only) and SCAN (lock keys by pattern), judged as rl_op_judge() does. */
#ifndef RL_SURVEY_H
#define RL_SURVEY_H
#include <stddef.h>
#include "rl_op.h"

/* INSPECT's reply (a redisReply *): a yes with "KIND HOLDERS PTTL WAITERS
 * FENCE" in err, each holder's token told to op->on_key; RL_REPLY_ERROR
 * with the reason when malformed. */
int rl_judge_inspect(const rl_op *op, const void *reply, char *err, size_t errlen);

/* SCAN's reply: a yes with the next cursor in err, each key that is not a
 * derived one told to op->on_key; RL_REPLY_ERROR when malformed. */
int rl_judge_scan(const rl_op *op, const void *reply, char *err, size_t errlen);

#endif
