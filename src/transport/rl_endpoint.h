/* Where a Redis node is and how to log in to it. */
#ifndef RL_ENDPOINT_H
#define RL_ENDPOINT_H
#include <stddef.h>

#define RL_DEFAULT_PORT 6379

typedef struct rl_endpoint {
    char *host;                 /* tcp host name or address; NULL for a unix socket */
    int port;                   /* tcp port, 1..65535 */
    char *unix_path;            /* unix socket path; NULL for tcp */
    char *username;             /* ACL user, or NULL */
    char *password;             /* or NULL; never printed */
    long database;              /* SELECTed after connect when not 0 */
    int tls;                    /* talk TLS: tls://, rediss://, valkeys:// */
    struct rl_tls_ctx *tls_ctx; /* with tls: the context of its settings (not owned: kept per process) */
    const char *tls_key;        /* with tls: the settings' identity, for the pool key (the context's) */
    size_t tls_key_len;
    int from_address; /* RL_EP_* bits: what the address itself set (a URL's user-info, database) */
} rl_endpoint;

#define RL_EP_USERNAME 1
#define RL_EP_PASSWORD 2
#define RL_EP_DATABASE 4
#define RL_EP_FROM_CLIENT 8 /* the address is another client's live connection (a phpredis \Redis) */

/* host[:port] (an IPv6 address in brackets) into out->host and out->port
 * (6379 when not given). 0, or -1 with a message in err. */
int rl_endpoint_parse_hostport(const char *s, size_t len, rl_endpoint *out, char *err, size_t errlen);

/* Deep copy; returns 0 or -1 on allocation failure. */
int rl_endpoint_copy(rl_endpoint *dst, const rl_endpoint *src);

/* Frees the strings of ep (not ep itself) and zeroes it. */
void rl_endpoint_clear(rl_endpoint *ep);

/* "host:port", "[v6]:port" or "unix:/path": the name used in messages.
 * Never includes credentials. A name longer than len - 1 ends in "...". */
void rl_endpoint_describe(const rl_endpoint *ep, char *buf, size_t len);

/* The two identities of an endpoint. A node is a server: two endpoints
 * that are the same node must not both count in a RedLock quorum. A
 * connection is a node logged in one way: two endpoints that are the same
 * connection may share a socket. The same connection is always the same
 * node; not the other way round. */

/* Non-zero when a and b name the same node: the same unix socket path, or
 * the same host (letter case aside) and port. Names that resolve alike
 * ("localhost" and "127.0.0.1") are not seen as the same. */
int rl_endpoint_same_node(const rl_endpoint *a, const rl_endpoint *b);

/* Non-zero when a and b are the same connection: the same node, with the
 * host written the same (letter case too: a connection shows its host as
 * written, and checks a TLS certificate against it), the same TLS settings
 * (tls, tls_key), database, user name and password. This is what the pool
 * key tells apart (src/transport/rl_pool_key.h), but the role. */
int rl_endpoint_same_connection(const rl_endpoint *a, const rl_endpoint *b);

/* Sets a string field (username or password) to a copy of s (NULL clears). */
int rl_endpoint_set_str(char **field, const char *s, size_t len);

/* Clears eps[0..n) and frees the array (calloc'd). */
void rl_endpoints_free(rl_endpoint *eps, size_t n);

#endif
