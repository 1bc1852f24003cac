/* A queued waiter's no (ACQUIRE_WAIT's, ACQUIRE_MANY's) and what it tells:
 * the id of the waiter's wake stream's last entry (where its first XREAD
 * starts) and the holder's token. */
#ifndef RL_QUEUED_H
#define RL_QUEUED_H
#include <stddef.h>
#include "rl_lock_state.h"

/* A queued waiter's no (ACQUIRE_WAIT's, ACQUIRE_MANY's) tells in its
 * result text "ID HOLDER": the id of its wake stream's last entry and the
 * holder's token ("" when none or not a plain lock). Writes it from the
 * two replies (0; -1 when malformed). */
int rl_queued_format(const void *id_reply, const void *holder_reply, char *text, size_t textlen);

/* Reads it back: id (a NUL-terminated copy; "" when malformed) and the
 * holder, pointing into text. */
void rl_queued_parse(const char *msg, char id[RL_WAKE_ID_MAX], const char **holder, size_t *holder_len);

#endif
