/* Server addresses as messages may show them: without what may be a secret. */
#ifndef RL_REDACT_H
#define RL_REDACT_H
#include <stddef.h>

/* A buffer this size holds any redacted address a message shows; longer
 * ones are cut, visibly, to fit. */
#define RL_REDACT_BUFLEN 128

/* Writes spec[0..len) to buf (buflen bytes, always NUL-terminated when
 * buflen > 0) as a message may show it:
 *   - user-info (up to the last '@') becomes "***": "redis://u:pw@h" shows
 *     as "redis://" "***@h";
 *   - a query becomes "?***", a fragment "#***";
 *   - when an '@' follows a '?' or '#' (a password may hold them), all after
 *     the scheme becomes "***";
 *   - control bytes are shown as \xNN;
 *   - what does not fit ends in "...".
 * A secret byte is never written, whatever buflen is. Returns the length
 * written (without the NUL). */
size_t rl_endpoint_redact(const char *spec, size_t len, char *buf, size_t buflen);

#endif
