#include "rl_reply_guard.h"
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum {
    G_TYPE,    /* next byte begins an item */
    G_NUM,     /* digits of an integer or a header */
    G_LINE,    /* a simple string or an error */
    G_LF,      /* a line's CR came: its LF must follow */
    G_BODY,    /* bytes of a bulk string */
    G_BODY_CR, /* the CRLF after a bulk string */
    G_BODY_LF,
    G_REFUSED
};

#define LLONG_MAX_U UINT64_C(9223372036854775807)

void rl_reply_limits_default(rl_reply_limits *l)
{
    l->max_elements = RL_REPLY_MAX_ELEMENTS;
    l->max_depth = RL_REPLY_MAX_DEPTH;
    l->max_bulk = RL_REPLY_MAX_BULK;
    l->max_line = RL_REPLY_MAX_LINE;
    l->max_reply = RL_REPLY_MAX_REPLY;
}

void rl_reply_guard_init(rl_reply_guard *g, const rl_reply_limits *limits)
{
    g->limits = limits;
    rl_reply_guard_reset(g);
}

void rl_reply_guard_reset(rl_reply_guard *g)
{
    const rl_reply_limits *limits = g->limits;
    memset(g, 0, sizeof *g);
    g->limits = limits;
    g->state = G_TYPE;
}

void rl_reply_guard_expect(rl_reply_guard *g, unsigned n)
{
    g->expected += n;
}

int rl_reply_guard_idle(const rl_reply_guard *g)
{
    return g->state == G_TYPE && g->depth == 0;
}

static int refuse(rl_reply_guard *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->why, sizeof g->why, fmt, ap);
    va_end(ap);
    g->state = G_REFUSED;
    return -1;
}

static unsigned max_depth(const rl_reply_guard *g)
{
    return g->limits->max_depth < RL_REPLY_DEPTH_CAP ? g->limits->max_depth : RL_REPLY_DEPTH_CAP;
}

/* What the number being read is, for messages. */
static const char *num_name(int type)
{
    return type == ':' ? "integer reply" : type == '$' ? "bulk length" : "array length";
}

/* An item is whole: count it in its array, and close every array it fills. */
static void item_done(rl_reply_guard *g)
{
    g->state = G_TYPE;
    while (g->depth > 0) {
        if (--g->left[g->depth - 1] > 0) {
            return;
        }
        g->depth--; /* that array is whole: an item of its parent */
    }
    g->complete++;
}

/* A line's CRLF came: act on what it said. */
static int line_done(rl_reply_guard *g)
{
    const rl_reply_limits *l = g->limits;

    if (g->type == '+' || g->type == '-') {
        item_done(g);
        return 0;
    }
    if (g->digits == 0) {
        return refuse(g, "%s is not a number", num_name(g->type));
    }
    if (g->type == ':') {
        item_done(g);
        return 0;
    }
    if (g->neg) {
        if (g->num != 1) {
            return refuse(g, "%s -%" PRIu64, num_name(g->type), g->num);
        }
        item_done(g); /* $-1 or *-1: nil */
        return 0;
    }
    if (g->type == '$') {
        if (g->num > l->max_bulk) {
            return refuse(g, "bulk reply of %" PRIu64 " bytes (limit %zu)", g->num, l->max_bulk);
        }
        if (g->num + 2 > l->max_reply - g->reply_bytes) { /* reply_bytes <= max_reply here */
            return refuse(g, "bulk reply of %" PRIu64 " bytes makes the reply larger than %zu bytes", g->num,
                          l->max_reply);
        }
        g->bulk_left = g->num;
        g->state = g->num > 0 ? G_BODY : G_BODY_CR;
        return 0;
    }
    /* '*' */
    if (g->num > l->max_elements || g->num > INT_MAX) { /* hiredis 0.14 takes up to INT_MAX */
        return refuse(g, "array of %" PRIu64 " elements (limit %zu)", g->num, l->max_elements);
    }
    if (g->num == 0) {
        item_done(g);
        return 0;
    }
    g->left[g->depth++] = g->num;
    g->state = G_TYPE;
    return 0;
}

/* The first byte of an item. */
static int begin_item(rl_reply_guard *g, unsigned char c)
{
    if (g->depth == 0) {
        if (g->expected == 0) {
            return refuse(g, "reply nobody asked for (byte 0x%02x)", c);
        }
        g->expected--;
        g->reply_bytes = 0;
    }
    g->type = c;
    g->neg = g->digits = 0;
    g->num = 0;
    g->line_len = 0;
    switch (c) {
    case '+':
    case '-':
        g->state = G_LINE;
        return 0;
    case ':':
    case '$':
        g->state = G_NUM;
        return 0;
    case '*':
        if (g->depth >= max_depth(g)) {
            return refuse(g, "arrays nested deeper than %u", max_depth(g));
        }
        g->state = G_NUM;
        return 0;
    }
    return refuse(g, "unknown reply type byte 0x%02x", c);
}

/* One character of a line. CR and LF come only as its CRLF. */
static int line_char(rl_reply_guard *g, unsigned char c)
{
    if (c == '\r') {
        g->state = G_LF;
        return 0;
    }
    if (c == '\n') {
        return refuse(g, "LF without CR in a line");
    }
    if (g->line_len >= g->limits->max_line) {
        return refuse(g, "line longer than %zu bytes without CRLF", g->limits->max_line);
    }
    g->line_len++;
    if (g->state == G_LINE) {
        return 0;
    }
    /* G_NUM, as strict as hiredis's string2ll: "0", or an optional '-'
     * then a digit 1-9 then digits, within a long long. */
    if (c == '-' && g->line_len == 1) {
        g->neg = 1;
        return 0;
    }
    if (c < '0' || c > '9') {
        return refuse(g, "%s is not a number", num_name(g->type));
    }
    if (g->digits > 0 && g->num == 0) {
        return refuse(g, "%s is not a number (leading zero)", num_name(g->type));
    }
    if (g->neg && c == '0' && g->digits == 0) {
        return refuse(g, "%s is not a number (-0)", num_name(g->type));
    }
    if (g->num > (LLONG_MAX_U + (uint64_t)g->neg - (uint64_t)(c - '0')) / 10) {
        return refuse(g, "%s out of range", num_name(g->type));
    }
    g->num = g->num * 10 + (uint64_t)(c - '0');
    g->digits++;
    return 0;
}

int rl_reply_guard_scan(rl_reply_guard *g, const char *buf, size_t len, size_t *ok, char *err, size_t errlen)
{
    const unsigned char *p = (const unsigned char *)buf;
    size_t i = 0;
    int rc = 0;

    while (i < len && g->state != G_REFUSED) {
        unsigned char c = p[i];

        if (g->state == G_BODY) { /* the header checked it fits in the reply */
            size_t n = len - i < g->bulk_left ? len - i : (size_t)g->bulk_left;
            g->bulk_left -= n;
            g->reply_bytes += n;
            i += n;
            if (g->bulk_left == 0) {
                g->state = G_BODY_CR;
            }
            continue;
        }
        if (g->state != G_TYPE || g->depth > 0) {
            if (g->reply_bytes >= g->limits->max_reply) {
                refuse(g, "reply larger than %zu bytes", g->limits->max_reply);
                break;
            }
        }
        switch (g->state) {
        case G_TYPE:
            rc = begin_item(g, c);
            break;
        case G_NUM:
        case G_LINE:
            rc = line_char(g, c);
            break;
        case G_LF:
            rc = c == '\n' ? line_done(g) : refuse(g, "CR without LF in a line");
            break;
        case G_BODY_CR:
            g->state = G_BODY_LF;
            rc = c == '\r' ? 0 : refuse(g, "bulk reply not followed by CRLF");
            break;
        case G_BODY_LF:
            if (c == '\n') {
                item_done(g);
            } else {
                rc = refuse(g, "bulk reply not followed by CRLF");
            }
            break;
        }
        if (rc != 0) {
            break;
        }
        g->reply_bytes++;
        i++;
    }
    if (ok) {
        *ok = i;
    }
    if (g->state == G_REFUSED) {
        if (err && errlen > 0) {
            snprintf(err, errlen, "%s", g->why);
        }
        return -1;
    }
    return 0;
}
