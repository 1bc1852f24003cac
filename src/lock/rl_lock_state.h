/* What the lock layer remembers about one connection from one call to the
 * next: the undos deferred on it (locks whose reply timed out: the node may
 * still apply them, so a release goes out before its next command) and,
 * on a wait connection, where the waiter's last XREAD of its wake stream
 * ended.
 *
 * The transport keeps none of this: the record hangs on the connection by
 * its one opaque pointer (rl_conn_attach), made on first use and freed by
 * the connection with the destructor given there. So it lives exactly as
 * long as the connection, a pooled one's across PHP requests, follows it
 * through reconnects, and nothing but this file reads or writes it. */
#ifndef RL_LOCK_STATE_H
#define RL_LOCK_STATE_H
#include <stddef.h>
#include <stdint.h>
#include "../transport/rl_conn.h"

/* Deferred undos kept per connection (a lockMany() of RL_MANY_MAX
 * resources fits); later ones are dropped (the lock's TTL still bounds
 * them). */
#define RL_CONN_MAX_UNDO 64

/* Longest stream entry id kept (ms-seq: two 64-bit numbers and a dash), with its NUL. */
#define RL_WAKE_ID_MAX 48

/* Remembers that a lock of key with token timed out on c's node: the node
 * may still apply it when it resumes. Up to RL_CONN_MAX_UNDO are kept. */
void rl_undo_defer(rl_conn *c, const char *key, size_t key_len, const char *token, size_t token_len);

/* How many undos c holds deferred. */
int rl_undos_pending(const rl_conn *c);

/* Hands each undo deferred on c to write (which appends its release to c:
 * 0, or non-zero when it could not), and forgets them. Returns how many
 * were written. rl_undos_append() (rl_lockops.h) writes the releases. */
typedef int (*rl_undo_writer)(void *ctx, rl_conn *c, const char *key, size_t key_len, const char *token,
                              size_t token_len);
int rl_undos_drain(rl_conn *c, rl_undo_writer write, void *ctx);

/* The last wake stream entry id this waiter read on c (where its next
 * XREAD begins), or NULL: none yet, or the cursor is another waiter's
 * (another waiter, or another lock, reads from the start). */
const char *rl_wake_cursor(const rl_conn *c, const char *waiter, size_t len);

/* Records id as the waiter's cursor on c (one waiter's at a time). */
void rl_wake_cursor_set(rl_conn *c, const char *waiter, size_t len, const char *id);

/* Keeps a copy of the result (len bytes of value) that a done wake read on
 * c handed to waiter (one at a time; out of memory: none kept). */
void rl_wake_result_set(rl_conn *c, const char *waiter, size_t waiter_len, const char *value, size_t len);

/* The result kept on c for waiter, handed over (*value malloc'd, freed by
 * the caller; *len its length) and forgotten: 1, or 0 when none is kept
 * for it (anything kept for another waiter is forgotten too). */
int rl_wake_result_take(rl_conn *c, const char *waiter, size_t waiter_len, char **value, size_t *len);

#endif
