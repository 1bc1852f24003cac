#include "rl_pool_key.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct key_buf {
    char *p;
    size_t len, cap;
    int oom;
} key_buf;

static void put(key_buf *b, const void *s, size_t n)
{
    if (b->oom) {
        return;
    }
    if (b->len + n > b->cap) {
        size_t cap = (b->len + n) * 2 + 64;
        char *grown = realloc(b->p, cap);
        if (grown == NULL) {
            b->oom = 1;
            return;
        }
        b->p = grown;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

/* tag, then "<len>:" and the bytes; "tag-" for an absent field */
static void field(key_buf *b, char tag, const void *s, size_t n, int present)
{
    char head[32];
    int len = present ? snprintf(head, sizeof head, "%c%zu:", tag, n) : snprintf(head, sizeof head, "%c-", tag);
    put(b, head, (size_t)len);
    if (present) {
        put(b, s, n);
    }
}

static void number(key_buf *b, char tag, long long v)
{
    char num[24];
    int len = snprintf(num, sizeof num, "%lld", v);
    field(b, tag, num, (size_t)len, 1);
}

int rl_pool_key(const rl_endpoint *ep, rl_conn_role role, const unsigned char *secret, size_t secret_len, char **out,
                size_t *out_len)
{
    key_buf b = {NULL, 0, 0, 0};

    field(&b, 'h', ep->host, ep->host ? strlen(ep->host) : 0, ep->host != NULL);
    number(&b, 'p', ep->host ? ep->port : 0);
    field(&b, 'x', ep->unix_path, ep->unix_path ? strlen(ep->unix_path) : 0, ep->unix_path != NULL);
    number(&b, 't', ep->tls);
    field(&b, 'T', ep->tls_key, ep->tls_key_len, ep->tls_key != NULL);
    number(&b, 'd', ep->database);
    field(&b, 'u', ep->username, ep->username ? strlen(ep->username) : 0, ep->username != NULL);
    field(&b, 's', secret, secret_len, secret != NULL);
    number(&b, 'r', (long long)role);
    if (b.oom) {
        free(b.p);
        return -1;
    }
    *out = b.p;
    *out_len = b.len;
    return 0;
}
