/* The login a fresh connection needs before its first command: AUTH (with
 * the endpoint's user and password) and SELECT (its database), and what
 * their replies, or a command's refusal for want of a login, mean. The
 * fan-out drives the exchange in its poll loop; this file only writes and
 * judges. */
#ifndef RL_HANDSHAKE_H
#define RL_HANDSHAKE_H
#include <stddef.h>
#include <stdint.h>
#include "rl_conn.h"

/* Appends the login commands (AUTH, SELECT) c's endpoint needs; returns
 * how many replies they owe (0: none needed) or -1 when out of memory. */
int rl_handshake_append(rl_conn *c, int64_t now_us);

/* The library version CLIENT SETINFO gives (the module's, at its start);
 * unset, only the name is given. */
void rl_handshake_set_version(const char *version);

/* Appends the connection's name for CLIENT LIST: CLIENT SETINFO LIB-NAME
 * redislock, and LIB-VER the version; then the probes of what the server
 * offers, in rl_probe's order (rl_caps.h: which of MSETEX, DELEX and
 * DELIFEQ it has, whether it can evict lock keys, whether it runs
 * scripts); c->probe_in[] counts the discards before each one's reply,
 * read into c->caps. Nobody waits for their replies (a server before
 * Redis 7.2, or a user whose ACL forbids them, refuses them: harmless), so
 * they cost no round trip. Returns how many replies they owe, or -1 when
 * out of memory. */
int rl_identify_append(rl_conn *c, int64_t now_us);

/* Judges the reply (a redisReply *) to the nth login command written by
 * rl_handshake_append (0: the first): 0 when accepted; an error reply is
 * RL_E_AUTH for AUTH, RL_E_REPLY for SELECT, with "AUTH refused: <the
 * server's message>" (or SELECT's) in err. */
int rl_handshake_judge(const rl_conn *c, int nth, const void *reply, char *err, size_t errlen);

/* Non-zero when a reply refuses a command because the server wants a login
 * first: an error starting NOAUTH or WRONGPASS, or the protocol error with
 * which a server that wants AUTH refuses a command of more than 10
 * arguments (and closes the connection; err then gets NOAUTH's message,
 * as the cause is the same). */
int rl_reply_wants_login(const void *reply, char *err, size_t errlen);

#endif
