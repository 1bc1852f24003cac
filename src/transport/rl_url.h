/* The URL server form, the convention of Laravel's REDIS_URL, Symfony DSNs
 * and most clients: redis://[[username]:password@]host[:port][/database],
 * rediss:// for TLS; the user-info percent-decoded. */
#ifndef RL_URL_H
#define RL_URL_H
#include <stddef.h>
#include "rl_endpoint.h"

/* Parses what follows "redis://" (tls 0) or "rediss://" (tls 1) into out,
 * which rl_endpoint_parse() zeroed; marks in out->from_address what the URL
 * set. 0, or -1 with a message in err that never shows the user-info. */
int rl_url_parse(const char *s, size_t len, int tls, rl_endpoint *out, char *err, size_t errlen);

#endif
