#include "rl_evict.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <hiredis/hiredis.h>

/* A bulk or simple string element: its bytes, else NULL. */
static const char *str_of(const redisReply *r, size_t *len)
{
    if (r == NULL || (r->type != REDIS_REPLY_STRING && r->type != REDIS_REPLY_STATUS) || r->str == NULL) {
        return NULL;
    }
    *len = r->len;
    return r->str;
}

static int named(const char *s, size_t len, const char *name)
{
    return len == strlen(name) && strncasecmp(s, name, len) == 0;
}

/* A plain decimal number of at most 19 digits (bytes fit in int64). */
static int number_of(const char *s, size_t len, long long *out)
{
    long long n = 0;
    size_t i;
    if (len == 0 || len > 18) {
        return -1; /* 18 digits never overflow a long long (only 0 or not 0 matters) */
    }
    for (i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return -1;
        }
        n = n * 10 + (s[i] - '0');
    }
    *out = n;
    return 0;
}

int rl_evict_judge(const void *reply, char *policy, size_t policy_len)
{
    const redisReply *r = reply;
    const char *mem = NULL, *pol = NULL;
    size_t mem_len = 0, pol_len = 0, i, o = 0;
    long long bytes;

    if (r == NULL) {
        return RL_EVICT_UNKNOWN;
    }
#ifdef REDIS_REPLY_MAP
    if (r->type != REDIS_REPLY_ARRAY && r->type != REDIS_REPLY_MAP) {
        return RL_EVICT_UNKNOWN;
    }
#else
    if (r->type != REDIS_REPLY_ARRAY) {
        return RL_EVICT_UNKNOWN;
    }
#endif
    if (r->elements % 2 != 0 || (r->elements > 0 && r->element == NULL)) {
        return RL_EVICT_UNKNOWN;
    }
    for (i = 0; i + 1 < r->elements; i += 2) {
        size_t nlen = 0, vlen = 0;
        const char *name = str_of(r->element[i], &nlen), *value = str_of(r->element[i + 1], &vlen);
        if (name == NULL || value == NULL) {
            return RL_EVICT_UNKNOWN; /* a pair of something else: not CONFIG GET's reply */
        }
        if (named(name, nlen, "maxmemory")) {
            mem = value;
            mem_len = vlen;
        } else if (named(name, nlen, "maxmemory-policy")) {
            pol = value;
            pol_len = vlen;
        }
    }
    if (mem == NULL || number_of(mem, mem_len, &bytes) != 0) {
        return RL_EVICT_UNKNOWN;
    }
    if (bytes == 0) {
        return RL_EVICT_SAFE; /* no limit: nothing is evicted */
    }
    if (pol == NULL || pol_len == 0) {
        return RL_EVICT_UNKNOWN;
    }
    if (named(pol, pol_len, "noeviction")) {
        return RL_EVICT_SAFE;
    }
    if (policy_len > 0) {
        for (i = 0; i < pol_len && o + 1 < policy_len; i++) {
            unsigned char ch = (unsigned char)pol[i];
            policy[o++] = (ch >= 0x21 && ch < 0x7f) ? (char)ch : '?';
        }
        policy[o] = '\0';
    }
    return RL_EVICT_RISKY;
}

typedef struct rl_evict_node {
    struct rl_evict_node *next;
    int claimed;
    char name[];
} rl_evict_node;

static pthread_mutex_t nodes_lock = PTHREAD_MUTEX_INITIALIZER;
static rl_evict_node *nodes;
static uint64_t nodes_count;

static rl_evict_node *find(const char *node)
{
    rl_evict_node *e;
    for (e = nodes; e != NULL; e = e->next) {
        if (strcmp(e->name, node) == 0) {
            return e;
        }
    }
    return NULL;
}

int rl_evict_seen(const char *node, int *added)
{
    rl_evict_node *e;
    int tell = 0;

    if (added != NULL) {
        *added = 0;
    }
    pthread_mutex_lock(&nodes_lock);
    e = find(node);
    if (e == NULL && nodes_count < RL_EVICT_NODES_MAX) {
        size_t len = strlen(node);
        e = malloc(sizeof *e + len + 1);
        if (e != NULL) {
            memcpy(e->name, node, len + 1);
            e->claimed = 0;
            e->next = nodes;
            nodes = e;
            nodes_count++;
            if (added != NULL) {
                *added = 1;
            }
        }
    }
    tell = e != NULL && !e->claimed;
    pthread_mutex_unlock(&nodes_lock);
    return tell;
}

int rl_evict_claim(const char *node)
{
    rl_evict_node *e;
    int mine = 0;

    pthread_mutex_lock(&nodes_lock);
    e = find(node);
    if (e != NULL && !e->claimed) {
        e->claimed = mine = 1;
    }
    pthread_mutex_unlock(&nodes_lock);
    return mine;
}

uint64_t rl_evict_nodes(void)
{
    uint64_t n;
    pthread_mutex_lock(&nodes_lock);
    n = nodes_count;
    pthread_mutex_unlock(&nodes_lock);
    return n;
}

void rl_evict_forget(void)
{
    pthread_mutex_lock(&nodes_lock);
    while (nodes != NULL) {
        rl_evict_node *e = nodes;
        nodes = e->next;
        free(e);
    }
    nodes_count = 0;
    pthread_mutex_unlock(&nodes_lock);
}
