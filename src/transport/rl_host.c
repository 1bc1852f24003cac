#include "rl_host.h"
#include <arpa/inet.h>
#include <net/if.h>
#include <string.h>

static int name_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
           || c == '_';
}

/* An IPv6 address, with maybe "%zone" (an interface's name or number) after it. */
static int ipv6_address(const char *s, size_t len)
{
    char addr[INET6_ADDRSTRLEN];
    struct in6_addr a6;
    const char *pct = memchr(s, '%', len);
    size_t n = pct ? (size_t)(pct - s) : len, i;

    if (pct != NULL) {
        size_t zone = len - n - 1;
        if (zone == 0 || zone >= IF_NAMESIZE) {
            return 0;
        }
        for (i = n + 1; i < len; i++) {
            if (!name_byte((unsigned char)s[i])) {
                return 0;
            }
        }
    }
    if (n >= sizeof addr) {
        return 0;
    }
    memcpy(addr, s, n);
    addr[n] = '\0';
    return inet_pton(AF_INET6, addr, &a6) == 1;
}

static rl_host_fault fault(rl_host_fault f, const char **why, const char *msg)
{
    if (why != NULL) {
        *why = msg;
    }
    return f;
}

static const char not_a_name[] = "host must be a name of letters, digits, '-', '.' and '_', or an IP address";

rl_host_fault rl_host_check(const char *host, size_t len, const char **why)
{
    size_t i;
    int colon = 0;

    if (len == 0) {
        return fault(RL_HOST_EMPTY, why, "host is empty");
    }
    if (memchr(host, '\0', len)) {
        return fault(RL_HOST_NUL, why, "host contains a NUL byte");
    }
    if (memchr(host, '/', len) || memchr(host, ' ', len)) {
        return fault(RL_HOST_SLASH_OR_SPACE, why, "host contains '/' or a space");
    }
    if (memchr(host, '@', len) || memchr(host, '?', len) || memchr(host, '#', len)) {
        return fault(RL_HOST_SHOWS_SECRET, why, "host contains '@', '?' or '#'");
    }
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)host[i];
        colon |= c == ':';
        if (!name_byte(c) && c != ':' && c != '%') {
            return fault(RL_HOST_BAD_BYTE, why, not_a_name);
        }
    }
    if (colon) {
        return ipv6_address(host, len) ? RL_HOST_OK
                                       : fault(RL_HOST_NOT_IPV6, why, "host has a ':' but is not an IPv6 address");
    }
    if (memchr(host, '%', len)) {
        return fault(RL_HOST_BAD_BYTE, why, not_a_name);
    }
    return RL_HOST_OK;
}
