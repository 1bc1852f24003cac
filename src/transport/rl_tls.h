/* TLS with OpenSSL, on sockets we own and never block on.
 *
 * A context (rl_tls_ctx) is made once per process for each distinct set of
 * settings and kept until module shutdown: every connection with those
 * settings, pooled or not, takes its SSL from it. A connection's TLS is an
 * SSL object on the connection's fd through a BIO of ours (send() with
 * MSG_NOSIGNAL: a peer that went away must not SIGPIPE the process). */
#ifndef RL_TLS_H
#define RL_TLS_H
#include <stddef.h>

/* The settings, as given (NULL/-1: not given). Strings are not owned. */
typedef struct rl_tls_config {
    const char *cafile, *capath, *local_cert, *local_pk, *passphrase, *peer_name;
    int verify_peer;      /* 1 by default */
    int verify_peer_name; /* 1 by default */
} rl_tls_config;

typedef struct rl_tls_ctx rl_tls_ctx;

/* The context for cfg, made on first use and kept. NULL with a message in
 * err (naming the setting at fault, never showing the passphrase). */
rl_tls_ctx *rl_tls_ctx_get(const rl_tls_config *cfg, char *err, size_t errlen);

/* The exact identity of a context's settings, for the pool key (the
 * passphrase enters only as its SHA-256). */
const char *rl_tls_ctx_key(const rl_tls_ctx *ctx, size_t *len);

/* Frees every context (module shutdown, after the pool). Sessions still
 * open (a thread's pool freed later, on a thread-safe PHP) keep them until
 * the last of them is freed. */
void rl_tls_shutdown(void);

/* Results of the non-blocking steps. */
#define RL_TLS_DONE 0
#define RL_TLS_WANT_READ 1
#define RL_TLS_WANT_WRITE 2
#define RL_TLS_FAILED -1 /* message in err */
#define RL_TLS_CLOSED -2 /* the peer closed (EOF or close_notify) */

/* A new client session on fd; host is the default peer name (SNI and the
 * name check). NULL with a message in err. */
void *rl_tls_new(rl_tls_ctx *ctx, int fd, const char *host, char *err, size_t errlen);

/* One step of the handshake. */
int rl_tls_handshake(void *ssl, char *err, size_t errlen);

/* Reads up to len decrypted bytes: > 0 bytes read, or an RL_TLS_* code
 * (WANT_READ: nothing more now, e.g. only a session ticket arrived). */
long rl_tls_read(void *ssl, char *buf, size_t len, char *err, size_t errlen);

/* Writes up to len bytes: > 0 bytes written, or an RL_TLS_* code. */
long rl_tls_write(void *ssl, const char *buf, size_t len, char *err, size_t errlen);

/* Decrypted bytes held inside the SSL: poll() cannot see them. */
int rl_tls_pending(void *ssl);

/* Frees a session. polite: send close_notify first (never in a forked
 * child: the socket is the parent's session too). */
void rl_tls_free(void *ssl, int polite);

#endif
