/* A server address in any of its forms, into an rl_endpoint: apart from
 * rl_endpoint.c, so that the URL form (rl_url.c), which reads its host and
 * port with rl_endpoint_parse_hostport(), does not include what includes it. */
#ifndef RL_ENDPOINT_PARSE_H
#define RL_ENDPOINT_PARSE_H
#include <stddef.h>
#include "rl_endpoint.h"

/* Parses "host", "host:port", "[v6addr]:port", "tcp://host:port",
 * "tls://host:port", "unix:///path", "unix:/path", and the URLs
 * "redis://[[user]:password@]host[:port][/database]", "rediss://...",
 * and Valkey's names for them "valkey://..." and "valkeys://..."
 * (src/transport/rl_url.c) into out (zeroed first; owns its strings).
 * Returns 0, or -1 (out left empty) with a message in err naming what is wrong; the message
 * never repeats the address (it may hold a password). */
int rl_endpoint_parse(const char *spec, size_t len, rl_endpoint *out, char *err, size_t errlen);

#endif
