/* The one rule for a host name or address, whoever gives it: the user (a
 * server string, URL or array) or a server (a Cluster's CLUSTER SLOTS and
 * MOVED/ASK, a sentinel's master address: untrusted input). A host passes
 * when it can be connected to and shown in messages and logs as it is:
 *   - not empty;
 *   - no NUL byte, no '/' or space (an address's syntax, not a host's);
 *   - no '@', '?' or '#': what a message shows of its node could be a
 *     password ("pw@host", "h?auth=pw");
 *   - otherwise only letters, digits, '-', '.' and '_' (a name, an IPv4
 *     address), or an IPv6 address (as inet_pton reads it, without the
 *     brackets, a "%zone" allowed after it): no control or non-ASCII byte
 *     reaches a log, no ':' is anything but an IPv6 address's.
 * A leading '-' is allowed: a host is never given to a command line, and
 * /etc/hosts may name anything. There is no length limit here: a long
 * user-given name fails at connect like any unknown one; a server's hosts
 * are also bounded by the buffers they are kept in (src/topology). */
#ifndef RL_HOST_H
#define RL_HOST_H
#include <stddef.h>

/* What is wrong with a host; callers that word their own messages choose
 * by it. */
typedef enum rl_host_fault {
    RL_HOST_OK = 0,
    RL_HOST_EMPTY,
    RL_HOST_NUL,
    RL_HOST_SLASH_OR_SPACE,
    RL_HOST_SHOWS_SECRET, /* '@', '?' or '#' */
    RL_HOST_BAD_BYTE,     /* a byte that no name or address holds */
    RL_HOST_NOT_IPV6,     /* a ':' but not an IPv6 address */
} rl_host_fault;

/* Checks host[0..len) (not NUL-terminated; brackets already removed).
 * Returns RL_HOST_OK, or the fault with *why (when why is not NULL) a
 * static message starting "host ...". */
rl_host_fault rl_host_check(const char *host, size_t len, const char **why);

#endif
