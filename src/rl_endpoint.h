/* Where a Redis node is and how to log in to it. */
#ifndef RL_ENDPOINT_H
#define RL_ENDPOINT_H
#include <stddef.h>

#define RL_DEFAULT_PORT 6379

typedef struct rl_endpoint {
    char *host;       /* tcp host name or address; NULL for a unix socket */
    int port;         /* tcp port, 1..65535 */
    char *unix_path;  /* unix socket path; NULL for tcp */
    char *username;   /* ACL user, or NULL */
    char *password;   /* or NULL; never printed */
    long database;    /* SELECTed after connect when not 0 */
} rl_endpoint;

/* Parses "host", "host:port", "[v6addr]:port", "tcp://host:port",
 * "unix:///path" or "unix:/path" into out (zeroed first; owns its strings).
 * Returns 0, or -1 with a message in err naming what is wrong. */
int rl_endpoint_parse(const char *spec, size_t len, rl_endpoint *out,
                      char *err, size_t errlen);

/* Deep copy; returns 0 or -1 on allocation failure. */
int rl_endpoint_copy(rl_endpoint *dst, const rl_endpoint *src);

/* Frees the strings of ep (not ep itself) and zeroes it. */
void rl_endpoint_clear(rl_endpoint *ep);

/* "host:port", "[v6]:port" or "unix:/path": the name used in messages.
 * Never includes credentials. */
void rl_endpoint_describe(const rl_endpoint *ep, char *buf, size_t len);

/* Sets a string field (username or password) to a copy of s (NULL clears). */
int rl_endpoint_set_str(char **field, const char *s, size_t len);

#endif
