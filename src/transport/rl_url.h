/* The URL server form, the convention of Laravel's REDIS_URL, Symfony DSNs
 * and most clients: redis://[[username]:password@]host[:port][/database],
 * rediss:// for TLS; the user-info percent-decoded. Valkey's valkey:// and
 * valkeys:// are the same URLs under its own names. */
#ifndef RL_URL_H
#define RL_URL_H
#include <stddef.h>
#include "rl_endpoint.h"

/* Parses what follows "<scheme>://" ("redis", "valkey": tls 0; "rediss",
 * "valkeys": tls 1) into out, which rl_endpoint_parse() zeroed; marks in
 * out->from_address what the URL set. 0, or -1 with a message in err (that
 * names the scheme, and never shows the user-info). */
int rl_url_parse(const char *scheme, const char *s, size_t len, int tls, rl_endpoint *out, char *err, size_t errlen);

#endif
