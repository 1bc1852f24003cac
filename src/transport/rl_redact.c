#include "rl_redact.h"
#include <stdbool.h>
#include <string.h>

typedef struct out {
    char *buf;
    size_t cap; /* bytes we may write before the NUL */
    size_t len;
    bool cut; /* something did not fit */
} out;

static void put(out *o, const char *s, size_t n)
{
    size_t room = o->cap - o->len;
    if (n > room) {
        n = room;
        o->cut = true;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

/* Text from the address itself: control bytes as \xNN. */
static void put_shown(out *o, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t i, start = 0;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            char esc[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
            put(o, s + start, i - start);
            put(o, esc, sizeof esc);
            start = i + 1;
        }
    }
    put(o, s + start, n - start);
}

#define PUT_LIT(o, lit) put((o), (lit), sizeof(lit) - 1)

/* Length of "scheme://" at the start of s, or 0. */
static size_t scheme_len(const char *s, size_t len)
{
    size_t i;
    if (len == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) {
        return 0;
    }
    for (i = 1; i < len; i++) {
        char c = s[i];
        if (c == ':') {
            return len - i >= 3 && s[i + 1] == '/' && s[i + 2] == '/' ? i + 3 : 0;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '-'
              || c == '.')) {
            return 0;
        }
    }
    return 0;
}

size_t rl_endpoint_redact(const char *spec, size_t len, char *buf, size_t buflen)
{
    out o = {buf, buflen ? buflen - 1 : 0, 0, false};
    size_t scheme, i, q, at;
    const char *rest;
    size_t rlen;
    bool has_at = false;

    if (buflen == 0) {
        return 0;
    }
    scheme = scheme_len(spec, len);
    rest = spec + scheme;
    rlen = len - scheme;
    q = rlen;
    at = 0;
    for (i = 0; i < rlen; i++) {
        if (q == rlen && (rest[i] == '?' || rest[i] == '#')) {
            q = i;
        }
        if (rest[i] == '@') {
            at = i;
            has_at = true;
        }
    }
    put_shown(&o, spec, scheme);
    if (has_at && at > q) {
        /* "redis://:pa?ss@host" or "h:1?mail=a@b&pw=x": no telling which */
        PUT_LIT(&o, "***");
    } else {
        if (has_at) {
            PUT_LIT(&o, "***@");
            put_shown(&o, rest + at + 1, q - at - 1);
        } else {
            put_shown(&o, rest, q);
        }
        if (q < rlen && rest[q] == '?') {
            PUT_LIT(&o, "?***");
            if (memchr(rest + q, '#', rlen - q)) {
                PUT_LIT(&o, "#***");
            }
        } else if (q < rlen) {
            PUT_LIT(&o, "#***");
        }
    }
    if (o.cut) {
        /* "..." over the last bytes (or what of it fits) */
        size_t dots = o.cap < 3 ? o.cap : 3;
        memset(o.buf + o.cap - dots, '.', dots);
        o.len = o.cap;
    }
    o.buf[o.len] = '\0';
    return o.len;
}
