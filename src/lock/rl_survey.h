/* The operator's reads of the lock family (the redislock command,
 * inspect() and locks()): the replies of INSPECT (one resource's state,
 * read-only) and SCAN (lock keys by pattern), judged as rl_op_judge() does. */
#ifndef RL_SURVEY_H
#define RL_SURVEY_H
#include <stddef.h>
#include "rl_op.h"

/* INSPECT's reply (a redisReply *): a yes with "KIND HOLDERS PTTL WAITERS
 * FENCE" in out->text, each holder's token told to op->on_key;
 * RL_REPLY_ERROR with the reason in err when malformed. */
int rl_judge_inspect(const rl_lock_op *op, const void *reply, rl_result *out, char *err, size_t errlen);

/* A name SCAN finds longer than this is told cut: its first
 * RL_SCAN_NAME_SHOWN bytes, then "... (N bytes, sha1 H)" with its whole
 * length N and the SHA1 of the whole name H (two names alike in their
 * first bytes stay two).
 * A name told longer than RL_SCAN_NAME_SHOWN bytes is thus always a cut
 * one (locks() documents it; the redislock command shows it so). */
#define RL_SCAN_NAME_SHOWN 1024
#define RL_SCAN_CUT_MARK_MAX 96 /* "... (N bytes, sha1 H)" */

/* The scan script's reply: a yes with "CURSOR" in out->text, or "CURSOR
 * AFTER" when the same page goes on (op->after for the next call), each
 * name that is not a derived key's told to op->on_key; RL_REPLY_ERROR when
 * malformed (the reason in err). */
int rl_judge_scan(const rl_lock_op *op, const void *reply, rl_result *out, char *err, size_t errlen);

#endif
