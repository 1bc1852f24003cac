/* One connection to one Redis node: a non-blocking socket, an output
 * buffer, a hiredis reply reader, and the bookkeeping that keeps a reused
 * (persistent) connection honest: owning pid, replies still owed. */
#ifndef RL_CONN_H
#define RL_CONN_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "rl_endpoint.h"
#include "../base/rl_error.h"
#include "rl_reply_guard.h"
#include "rl_caps.h"

typedef struct rl_conn_stats {
    uint64_t connects;   /* connections made */
    uint64_t reconnects; /* of those, after the first: replacing one closed or found dead */
    uint64_t dropped;    /* closed because replies were left unread */
} rl_conn_stats;

/* What a connection is for: a waiter's blocking reads never share a socket
 * with the lock commands. */
typedef enum rl_conn_role {
    RL_ROLE_COMMAND = 0,
    RL_ROLE_WAIT = 1
} rl_conn_role;

/* "command" or "wait". */
const char *rl_conn_role_name(rl_conn_role role);

typedef struct rl_conn {
    rl_endpoint ep;
    char name[300]; /* rl_endpoint_describe(), for messages */
    int fd;         /* -1 when closed */
    pid_t pid;      /* process that opened fd */
    rl_conn_role role;
    int connecting;           /* non-blocking connect in progress */
    void *addrs, *next_addr;  /* struct addrinfo list while connecting */
    int authed;               /* handshake (AUTH/SELECT) done on this fd */
    void *ssl;                /* SSL * of a TLS connection, or NULL */
    int tls_ready;            /* TLS handshake done */
    int tls_failed;           /* a TLS error or EOF happened: no close_notify */
    short tls_want;           /* during the handshake: POLLIN or POLLOUT */
    int tls_read_wants_write; /* SSL_read waits until the socket is writable */
    int tls_write_wants_read; /* SSL_write waits until the socket is readable */
    void *reader;             /* redisReader * */
    rl_reply_limits limits;   /* what one reply may be (lock defaults; raise for bigger replies) */
    rl_reply_guard guard;     /* checks every byte against limits before the reader gets it */
    char *out;                /* bytes not yet written */
    size_t out_len, out_cap;
    int owed;                     /* replies sent for but not read */
    int discard;                  /* of those, replies nobody waits for */
    rl_caps caps;                 /* what the server offers (rl_caps.h), asked in a
                                fresh connection's first write */
    int probe_in[RL_PROBE_COUNT]; /* discards read before each probe's reply (rl_probe); -1: none owed */
    int64_t owed_since_us;        /* when the oldest owed reply was asked for */
    int64_t last_reply_us;        /* when the server last answered on this socket */
    int64_t down_until_us;        /* after a timeout: fail fast until then */
    rl_conn_stats stats;
    /* What a layer above keeps about this connection (the lock layer's
     * record), opaque here: it lives as long as the connection, across
     * reconnects and the requests a pooled connection serves, and
     * rl_conn_free() frees it with the destructor it was attached with.
     * Set only by rl_conn_attach(). */
    void *attached;
    void (*attached_free)(void *);
    /* What leaks, and why: must_answer is the fan-out's business, not the
     * transport's (a quorum that decided early still hears a Sentinel
     * group's master, whose failure is how a failover is noticed). Its place
     * would be the vote, but several callers build votes on the stack
     * without zeroing them; a connection is zeroed when made, and a pooled
     * one shared with another object's direct node is then waited for there
     * too, one reply more (docs/design/topologies.md, "An early decision
     * waits for a group's master"). */
    int must_answer; /* an early decision still waits for this node (a
                                sentinel group's master: its failure is how a
                                failover is noticed; rl_conn_set_must_answer) */
} rl_conn;

/* A closed connection to a copy of ep, for role. NULL when out of memory. */
rl_conn *rl_conn_new(const rl_endpoint *ep, rl_conn_role role);

/* Gives c data to keep until it is freed, then to free with free_fn (which
 * may be NULL). Data attached before is freed first. */
void rl_conn_attach(rl_conn *c, void *data, void (*free_fn)(void *));

/* Closes and frees, with what was attached to it. */
void rl_conn_free(rl_conn *c);

/* Closes the socket (a forked child's copy is closed without shutdown,
 * so the parent's connection is untouched) and forgets owed replies. */
void rl_conn_close(rl_conn *c);

/* Makes a reused connection safe to send on, without blocking: a socket
 * inherited across fork() is closed; owed replies that already arrived
 * are read and dropped; a socket the server closed, or that holds data
 * nobody asked for, is closed (this look costs a poll(), so it is skipped
 * for a socket that answered less than RL_CONN_FRESH_US ago: one closed
 * since is found at send or read, and the command retried). Returns 1 if
 * still open. */
int rl_conn_check(rl_conn *c, int64_t now_us);

#define RL_CONN_FRESH_US 20000

#define RL_CONN_FILL_MAX 65536

/* End of a request: a connection still owing replies is closed, never
 * handed to the next request dirty. Returns 1 if it was closed. */
int rl_conn_settle(rl_conn *c);

/* Starts a non-blocking connect. 0: connected or in progress (see
 * c->connecting); otherwise an rl_status with a message in err. */
int rl_conn_start_connect(rl_conn *c, rl_error *err);

/* Completes a connect that poll() reported writable. 0 or an rl_status. */
int rl_conn_finish_connect(rl_conn *c, rl_error *err);

/* Starts the TLS handshake on a connected socket (ep.tls). 0, or
 * RL_E_TLS / RL_E_NOMEM with a message in err. */
int rl_conn_tls_start(rl_conn *c, rl_error *err);

/* One non-blocking step of the TLS handshake: 0 when done, 1 when it waits
 * for c->tls_want, or RL_E_TLS with what failed in err ("TLS: certificate
 * verify failed: ...", the alert). */
int rl_conn_tls_step(rl_conn *c, rl_error *err);

/* The poll() events the connection waits for once it is up: POLLIN, and
 * POLLOUT while output waits (or while TLS needs the other direction). */
short rl_conn_events(const rl_conn *c);

/* Non-zero when bytes were received and decrypted but not yet read: poll()
 * cannot see them, so the caller reads without waiting. */
int rl_conn_buffered(const rl_conn *c);

/* Appends one command (argv form) to the output buffer and counts the
 * reply it owes. 0 or RL_E_NOMEM. */
int rl_conn_append(rl_conn *c, int argc, const char **argv, const size_t *argvlen, int64_t now_us);

/* Writes what it can of the output buffer without blocking.
 * 0 (maybe partial: c->out_len > 0 then) or RL_E_IO. */
int rl_conn_flush(rl_conn *c, rl_error *err);

/* Reads what the socket has into the reader without blocking, at most
 * RL_CONN_FILL_MAX bytes per call (a server that floods must not keep the
 * caller from its deadlines). Every byte passes c->guard first: a stream
 * beyond c->limits, malformed, or holding replies nobody asked for is
 * refused before it is buffered. 0, RL_E_IO (closed by the server, or
 * reset) or RL_E_PROTOCOL with "protocol error: <why>" in err; after an
 * error the caller closes the connection. */
int rl_conn_fill(rl_conn *c, rl_error *err);

/* The session state the fan-out keeps on a connection, changed through
 * these (only rl_conn.c writes an rl_conn's fields). */
void rl_conn_set_down_until(rl_conn *c, int64_t until_us);          /* fail fast until then (0: not) */
void rl_conn_set_authed(rl_conn *c, int authed);                    /* the login was (or must be) done again */
void rl_conn_owe_discards(rl_conn *c, int n);                       /* n more owed replies nobody waits for */
void rl_conn_discard_one(rl_conn *c, const void *reply);            /* one of those was read (a redisReply) */
void rl_conn_abandon_owed(rl_conn *c);                              /* every reply still owed is nobody's */
void rl_conn_set_must_answer(rl_conn *c);                           /* an early decision waits for it */
void rl_conn_set_limits(rl_conn *c, const rl_reply_limits *limits); /* NULL: the lock defaults */
void rl_conn_set_name(rl_conn *c, const char *name);                /* what messages call it */

/* Takes the next complete reply (a redisReply *) off the reader, or NULL.
 * Sets *status to RL_E_PROTOCOL on a malformed stream. */
void *rl_conn_next_reply(rl_conn *c, int *status);

#endif
