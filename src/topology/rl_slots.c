#include "rl_slots.h"
#include "../transport/rl_host.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <hiredis/hiredis.h>

/* crc16 of each byte value alone: table[b] = crc16 of the byte b. */
static const uint16_t crc_table[256] = {
    0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50a5, 0x60c6, 0x70e7, 0x8108, 0x9129, 0xa14a, 0xb16b, 0xc18c, 0xd1ad,
    0xe1ce, 0xf1ef, 0x1231, 0x0210, 0x3273, 0x2252, 0x52b5, 0x4294, 0x72f7, 0x62d6, 0x9339, 0x8318, 0xb37b, 0xa35a,
    0xd3bd, 0xc39c, 0xf3ff, 0xe3de, 0x2462, 0x3443, 0x0420, 0x1401, 0x64e6, 0x74c7, 0x44a4, 0x5485, 0xa56a, 0xb54b,
    0x8528, 0x9509, 0xe5ee, 0xf5cf, 0xc5ac, 0xd58d, 0x3653, 0x2672, 0x1611, 0x0630, 0x76d7, 0x66f6, 0x5695, 0x46b4,
    0xb75b, 0xa77a, 0x9719, 0x8738, 0xf7df, 0xe7fe, 0xd79d, 0xc7bc, 0x48c4, 0x58e5, 0x6886, 0x78a7, 0x0840, 0x1861,
    0x2802, 0x3823, 0xc9cc, 0xd9ed, 0xe98e, 0xf9af, 0x8948, 0x9969, 0xa90a, 0xb92b, 0x5af5, 0x4ad4, 0x7ab7, 0x6a96,
    0x1a71, 0x0a50, 0x3a33, 0x2a12, 0xdbfd, 0xcbdc, 0xfbbf, 0xeb9e, 0x9b79, 0x8b58, 0xbb3b, 0xab1a, 0x6ca6, 0x7c87,
    0x4ce4, 0x5cc5, 0x2c22, 0x3c03, 0x0c60, 0x1c41, 0xedae, 0xfd8f, 0xcdec, 0xddcd, 0xad2a, 0xbd0b, 0x8d68, 0x9d49,
    0x7e97, 0x6eb6, 0x5ed5, 0x4ef4, 0x3e13, 0x2e32, 0x1e51, 0x0e70, 0xff9f, 0xefbe, 0xdfdd, 0xcffc, 0xbf1b, 0xaf3a,
    0x9f59, 0x8f78, 0x9188, 0x81a9, 0xb1ca, 0xa1eb, 0xd10c, 0xc12d, 0xf14e, 0xe16f, 0x1080, 0x00a1, 0x30c2, 0x20e3,
    0x5004, 0x4025, 0x7046, 0x6067, 0x83b9, 0x9398, 0xa3fb, 0xb3da, 0xc33d, 0xd31c, 0xe37f, 0xf35e, 0x02b1, 0x1290,
    0x22f3, 0x32d2, 0x4235, 0x5214, 0x6277, 0x7256, 0xb5ea, 0xa5cb, 0x95a8, 0x8589, 0xf56e, 0xe54f, 0xd52c, 0xc50d,
    0x34e2, 0x24c3, 0x14a0, 0x0481, 0x7466, 0x6447, 0x5424, 0x4405, 0xa7db, 0xb7fa, 0x8799, 0x97b8, 0xe75f, 0xf77e,
    0xc71d, 0xd73c, 0x26d3, 0x36f2, 0x0691, 0x16b0, 0x6657, 0x7676, 0x4615, 0x5634, 0xd94c, 0xc96d, 0xf90e, 0xe92f,
    0x99c8, 0x89e9, 0xb98a, 0xa9ab, 0x5844, 0x4865, 0x7806, 0x6827, 0x18c0, 0x08e1, 0x3882, 0x28a3, 0xcb7d, 0xdb5c,
    0xeb3f, 0xfb1e, 0x8bf9, 0x9bd8, 0xabbb, 0xbb9a, 0x4a75, 0x5a54, 0x6a37, 0x7a16, 0x0af1, 0x1ad0, 0x2ab3, 0x3a92,
    0xfd2e, 0xed0f, 0xdd6c, 0xcd4d, 0xbdaa, 0xad8b, 0x9de8, 0x8dc9, 0x7c26, 0x6c07, 0x5c64, 0x4c45, 0x3ca2, 0x2c83,
    0x1ce0, 0x0cc1, 0xef1f, 0xff3e, 0xcf5d, 0xdf7c, 0xaf9b, 0xbfba, 0x8fd9, 0x9ff8, 0x6e17, 0x7e36, 0x4e55, 0x5e74,
    0x2e93, 0x3eb2, 0x0ed1, 0x1ef0,
};

static uint16_t crc_step(uint16_t crc, unsigned char byte)
{
    return (uint16_t)((crc << 8) ^ crc_table[((crc >> 8) ^ byte) & 0xFF]);
}

uint16_t rl_crc16(const char *buf, size_t len)
{
    uint16_t crc = 0;
    size_t i;
    for (i = 0; i < len; i++) {
        crc = crc_step(crc, (unsigned char)buf[i]);
    }
    return crc;
}

/* The hash tag of key: non-zero with *start and *n set when it has one. */
static int hash_tag(const char *key, size_t len, size_t *start, size_t *n)
{
    const char *open, *close;
    if (len == 0 || (open = memchr(key, '{', len)) == NULL) {
        return 0;
    }
    close = memchr(open + 1, '}', len - (size_t)(open + 1 - key));
    if (close == NULL || close == open + 1) {
        return 0;
    }
    *start = (size_t)(open + 1 - key);
    *n = (size_t)(close - open - 1);
    return 1;
}

unsigned rl_key_slot(const char *key, size_t len)
{
    size_t start, n;
    if (hash_tag(key, len, &start, &n)) {
        return rl_crc16(key + start, n) % RL_SLOT_COUNT;
    }
    return rl_crc16(key, len) % RL_SLOT_COUNT;
}

static const char tag_chars[] = "0123456789abcdefghijklmnopqrstuvwxyz";

/* Every slot's first tag, found in one walk of the tags in order (shorter
 * first, then in the order of tag_chars) that stops once all 16384 slots
 * have one: 60,822 candidates of at most 4 CRC steps, about 1 ms once per
 * process, the first time a derived key is named. 80 KiB. Filled once
 * (pthread_once) whichever thread asks first; table_ready is read with
 * acquire order, a plain load on x86-64: the threads of a thread-safe PHP
 * see it filled or wait for it. */
static char table_tags[RL_SLOT_COUNT][4];
static unsigned char table_lens[RL_SLOT_COUNT];
static int table_ready;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void table_fill(void)
{
    unsigned filled = 0, want, depth, idx[4];
    for (want = 1; want <= 4 && filled < RL_SLOT_COUNT; want++) {
        for (depth = 0; depth < want; depth++) {
            idx[depth] = 0;
        }
        while (filled < RL_SLOT_COUNT) {
            uint16_t crc = 0;
            unsigned slot;
            for (depth = 0; depth < want; depth++) {
                crc = crc_step(crc, (unsigned char)tag_chars[idx[depth]]);
            }
            slot = crc % RL_SLOT_COUNT;
            if (table_lens[slot] == 0) {
                for (depth = 0; depth < want; depth++) {
                    table_tags[slot][depth] = tag_chars[idx[depth]];
                }
                table_lens[slot] = (unsigned char)want;
                filled++;
            }
            /* next string of want bytes, the last byte turning fastest */
            for (depth = want; depth-- > 0;) {
                if (++idx[depth] < sizeof tag_chars - 1) {
                    break;
                }
                idx[depth] = 0;
            }
            if (depth == (unsigned)-1) {
                break;
            }
        }
    }
    __atomic_store_n(&table_ready, 1, __ATOMIC_RELEASE);
}

size_t rl_slot_tag(unsigned slot, char t[4])
{
    if (slot >= RL_SLOT_COUNT) {
        return 0;
    }
    if (!__atomic_load_n(&table_ready, __ATOMIC_ACQUIRE)) {
        pthread_once(&table_once, table_fill);
    }
    memcpy(t, table_tags[slot], table_lens[slot]);
    return table_lens[slot];
}

/* Writes n bytes of s at out[at..] as far as they fit below cap - 1 (the
 * last byte is the NUL's); returns where the next bytes go. */
static size_t put(char *out, size_t cap, size_t at, const char *s, size_t n)
{
    if (n > 0 && at + 1 < cap) {
        size_t room = cap - 1 - at;
        memcpy(out + at, s, n < room ? n : room);
    }
    return at + n;
}

size_t rl_key_base(const char *key, size_t len, char *out, size_t cap)
{
    size_t start, n, at = 0, tlen;
    char tag[4];

    if (hash_tag(key, len, &start, &n)) {
        at = put(out, cap, at, key, len);
    } else if (len > 0 && memchr(key, '}', len) == NULL) {
        at = put(out, cap, at, "{", 1);
        at = put(out, cap, at, key, len);
        at = put(out, cap, at, "}", 1);
    } else {
        tlen = rl_slot_tag(rl_key_slot(key, len), tag);
        at = put(out, cap, at, "{", 1);
        at = put(out, cap, at, tag, tlen);
        at = put(out, cap, at, "}", 1);
        at = put(out, cap, at, key, len);
    }
    if (cap > 0) {
        out[at < cap ? at : cap - 1] = '\0';
    }
    return at;
}

int rl_key_has_tag(const char *key, size_t len)
{
    size_t start, n;
    return hash_tag(key, len, &start, &n);
}

int rl_slot_tag_shaped(const char *t, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (!((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'z'))) {
            return 0;
        }
    }
    return n >= 1 && n <= 4;
}

int rl_key_is_base(const char *key, size_t len, size_t *inner_at)
{
    const char *close;
    char tag[4];
    size_t at, k;
    if (len < 3 || key[0] != '{') {
        return 0;
    }
    /* "{" K "}": K holds a '{' and no '}' (so no tag either) */
    if (key[len - 1] == '}' && memchr(key + 1, '}', len - 2) == NULL && memchr(key + 1, '{', len - 2) != NULL) {
        *inner_at = 1;
        return 1;
    }
    /* "{T}" K: K holds a '}' and a '{' but no tag, T its slot's tag */
    if ((close = memchr(key + 1, '}', len - 1)) == NULL || !rl_slot_tag_shaped(key + 1, (size_t)(close - key - 1))) {
        return 0;
    }
    at = (size_t)(close - key) + 1;
    k = len - at;
    if (k == 0 || memchr(key + at, '{', k) == NULL || memchr(key + at, '}', k) == NULL || rl_key_has_tag(key + at, k)
        || rl_slot_tag(rl_key_slot(key + at, k), tag) != at - 2 || memcmp(tag, key + 1, at - 2) != 0) {
        return 0;
    }
    *inner_at = at;
    return 1;
}

size_t rl_key_derived_letter_at(const char *key, size_t len)
{
    size_t start, n;
    if (hash_tag(key, len, &start, &n) || (len > 0 && memchr(key, '{', len) != NULL)) {
        return rl_key_base(key, len, NULL, 0) + 1;
    }
    return len + 1;
}

size_t rl_key_derived(const char *key, size_t len, char letter, char *out, size_t cap)
{
    size_t start, n, at, tlen;
    char tail[2] = {'\0', letter}, tag[4];

    if (hash_tag(key, len, &start, &n) || (len > 0 && memchr(key, '{', len) != NULL)) {
        /* the tag is kept; a key with a '{' but no tag gets the base form */
        at = rl_key_base(key, len, NULL, 0);
        if (cap > 0) {
            rl_key_base(key, len, out, cap);
        }
        at = put(out, cap, at, tail, 2);
        if (hash_tag(key, len, &start, &n) && rl_key_is_base(key, len, &start)) {
            /* a tagged key that is another key's base form: its keys end
             * in "{}" (an empty tag changes no slot), the other's do not */
            at = put(out, cap, at, "{}", 2);
        }
    } else {
        tlen = rl_slot_tag(rl_key_slot(key, len), tag);
        at = put(out, cap, 0, key, len);
        at = put(out, cap, at, tail, 2);
        at = put(out, cap, at, "{", 1);
        at = put(out, cap, at, tag, tlen);
        at = put(out, cap, at, "}", 1);
    }
    if (cap > 0) {
        out[at < cap ? at : cap - 1] = '\0';
    }
    return at;
}

/* 1 to 5 decimal digits making a number no greater than max. */
static int parse_number(const char *s, size_t n, unsigned long max, unsigned long *v)
{
    size_t i;
    if (n == 0 || n > 5) {
        return 0;
    }
    *v = 0;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return 0;
        }
        *v = *v * 10 + (unsigned long)(s[i] - '0');
    }
    return *v <= max;
}

/* A host we are willing to connect to: one a user could give too (the one
 * host rule, src/transport/rl_host.h), and short enough for the map's
 * buffers (255 bytes). */
static int host_ok(const char *h, size_t n)
{
    return n < RL_SLOT_HOSTLEN && rl_host_check(h, n, NULL) == RL_HOST_OK;
}

/* strlen(s), but no more than RL_SLOT_HOSTLEN; 0 for NULL. */
static size_t host_len(const char *s)
{
    size_t n = 0;
    while (s != NULL && n < RL_SLOT_HOSTLEN && s[n] != '\0') {
        n++;
    }
    return n;
}

/* Whether err's first word is word: the word alone, or then a space. */
static int first_word(const char *err, size_t len, const char *word)
{
    size_t n = strlen(word);
    return len >= n && memcmp(err, word, n) == 0 && (len == n || err[n] == ' ');
}

/* "<host>:<port>" or "[<host>]:<port>" or ":<port>" into out. */
static int parse_endpoint(const char *s, size_t n, rl_redirect *out)
{
    const char *colon = NULL;
    unsigned long port;
    size_t i;

    for (i = 0; i < n; i++) {
        if (s[i] == ':') {
            colon = s + i;
        }
    }
    if (colon == NULL || !parse_number(colon + 1, n - (size_t)(colon + 1 - s), 65535, &port) || port == 0) {
        return 0;
    }
    n = (size_t)(colon - s);
    if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
        s++;
        n -= 2;
        if (n == 0) {
            return 0;
        }
    }
    if (n > 0 && !host_ok(s, n)) {
        return 0;
    }
    memcpy(out->host, s, n);
    out->host[n] = '\0';
    out->same_host = n == 0;
    out->port = (int)port;
    return 1;
}

int rl_cluster_redirect(const char *err, size_t len, rl_redirect *out)
{
    int kind;
    size_t at, digits = 0;
    unsigned long slot;

    memset(out, 0, sizeof *out);
    if (first_word(err, len, "MOVED")) {
        kind = RL_REDIRECT_MOVED;
        at = 6;
    } else if (first_word(err, len, "ASK")) {
        kind = RL_REDIRECT_ASK;
        at = 4;
    } else {
        return 0;
    }
    while (at + digits < len && err[at + digits] != ' ') {
        digits++;
    }
    if (at + digits >= len || !parse_number(err + at, digits, RL_SLOT_COUNT - 1, &slot)) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    at += digits + 1;
    if (!parse_endpoint(err + at, len - at, out)) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    out->slot = (unsigned)slot;
    return kind;
}

int rl_cluster_retryable(const char *err, size_t len)
{
    if (first_word(err, len, "TRYAGAIN")) {
        return RL_CLUSTER_TRYAGAIN;
    }
    if (first_word(err, len, "CLUSTERDOWN")) {
        return RL_CLUSTER_DOWN;
    }
    return 0;
}

void rl_slot_map_clear(rl_slot_map *m)
{
    size_t i;
    m->nnodes = 0;
    memset(m->nodes, 0, sizeof m->nodes);
    for (i = 0; i < RL_SLOT_COUNT; i++) {
        m->owner[i] = RL_SLOT_UNMAPPED;
    }
}

int rl_slot_map_node(const rl_slot_map *m, unsigned slot)
{
    if (slot >= RL_SLOT_COUNT || m->owner[slot] == RL_SLOT_UNMAPPED) {
        return -1;
    }
    return m->owner[slot];
}

int rl_slot_map_complete(const rl_slot_map *m)
{
    size_t i;
    for (i = 0; i < RL_SLOT_COUNT; i++) {
        if (m->owner[i] == RL_SLOT_UNMAPPED) {
            return 0;
        }
    }
    return 1;
}

/* The index of host:port in m, or -1. hint is tried first. */
static int find_node(const rl_slot_map *m, const char *host, size_t n, int port, int hint)
{
    unsigned i;
    if (hint >= 0 && (unsigned)hint < m->nnodes && m->nodes[hint].port == port && strlen(m->nodes[hint].host) == n
        && memcmp(m->nodes[hint].host, host, n) == 0) {
        return hint;
    }
    for (i = 0; i < m->nnodes; i++) {
        if (m->nodes[i].port == port && strlen(m->nodes[i].host) == n && memcmp(m->nodes[i].host, host, n) == 0) {
            return (int)i;
        }
    }
    return -1;
}

static void node_put(rl_slot_map *m, unsigned i, const char *host, size_t n, int port)
{
    memset(m->nodes[i].host, 0, sizeof m->nodes[i].host);
    memcpy(m->nodes[i].host, host, n);
    m->nodes[i].port = port;
}

/* A node that serves no slot (but maybe except), or -1. */
static int unused_node(const rl_slot_map *m, unsigned except)
{
    unsigned char used[RL_SLOT_MAX_NODES] = {0};
    unsigned i;
    for (i = 0; i < RL_SLOT_COUNT; i++) {
        if (i != except && m->owner[i] != RL_SLOT_UNMAPPED) {
            used[m->owner[i]] = 1;
        }
    }
    for (i = 0; i < m->nnodes; i++) {
        if (!used[i]) {
            return (int)i;
        }
    }
    return -1;
}

int rl_slot_map_set(rl_slot_map *m, unsigned slot, const char *host, int port)
{
    size_t n = host_len(host);
    int i;

    if (slot >= RL_SLOT_COUNT || !host_ok(host, n) || port < 1 || port > 65535) {
        return -1;
    }
    i = find_node(m, host, n, port, m->owner[slot]);
    if (i < 0 && m->nnodes < RL_SLOT_MAX_NODES) {
        i = (int)m->nnodes++;
        node_put(m, (unsigned)i, host, n, port);
    } else if (i < 0 && (i = unused_node(m, slot)) >= 0) {
        node_put(m, (unsigned)i, host, n, port);
    }
    if (i >= 0) {
        m->owner[slot] = (uint16_t)i;
    }
    return i;
}

/* A node of a CLUSTER SLOTS range, checked. */
typedef struct slots_node {
    const char *host; /* NULL: "?", nobody knows */
    size_t len;
    int port;
} slots_node;

static int bad(char *err, size_t errlen, const char *what, size_t range, size_t node)
{
    if (node == 0) {
        snprintf(err, errlen, "CLUSTER SLOTS: range %zu: %s", range, what);
    } else {
        snprintf(err, errlen, "CLUSTER SLOTS: range %zu, node %zu: %s", range, node, what);
    }
    return -1;
}

/* Checks node number k (1: the master) of range r. */
static int check_node(const redisReply *e, const char *asked, slots_node *out, char *err, size_t errlen, size_t r,
                      size_t k)
{
    const redisReply *host, *port;

    if (e->type != REDIS_REPLY_ARRAY || e->elements < 2) {
        return bad(err, errlen, "not an array of host, port, id", r, k);
    }
    host = e->element[0];
    port = e->element[1];
    if (host->type != REDIS_REPLY_STRING && host->type != REDIS_REPLY_NIL) {
        return bad(err, errlen, "host is neither a string nor nil", r, k);
    }
    if (port->type != REDIS_REPLY_INTEGER || port->integer < 1 || port->integer > 65535) {
        return bad(err, errlen, "port is not an integer in 1..65535", r, k);
    }
    if (e->elements > 2 && e->element[2]->type != REDIS_REPLY_STRING) {
        return bad(err, errlen, "node id is not a string", r, k);
    }
    out->port = (int)port->integer;
    if (host->type == REDIS_REPLY_STRING && host->len == 1 && host->str[0] == '?') {
        out->host = NULL;
        out->len = 0;
        return 0;
    }
    if (host->type == REDIS_REPLY_NIL || host->len == 0) {
        out->host = asked;
        out->len = host_len(asked);
        if (!host_ok(out->host, out->len)) {
            return bad(err, errlen, "no host given, and the asked node's host is not valid", r, k);
        }
        return 0;
    }
    out->host = host->str;
    out->len = host->len;
    if (!host_ok(out->host, out->len)) {
        return bad(err, errlen, "not a host name or address", r, k);
    }
    return 0;
}

/* Checks range r (counted from 1) and fills its slots in m; seen marks slots given so far. */
static int add_range(rl_slot_map *m, const redisReply *e, const char *asked, unsigned char *seen, int *hint, char *err,
                     size_t errlen, size_t r)
{
    slots_node master = {NULL, 0, 0}, replica;
    long long start, end, s;
    size_t k;
    int i;

    if (e->type != REDIS_REPLY_ARRAY || e->elements < 3) {
        return bad(err, errlen, "not an array of start, end, master...", r, 0);
    }
    if (e->element[0]->type != REDIS_REPLY_INTEGER || e->element[1]->type != REDIS_REPLY_INTEGER) {
        return bad(err, errlen, "start or end is not an integer", r, 0);
    }
    start = e->element[0]->integer;
    end = e->element[1]->integer;
    if (start < 0 || end >= RL_SLOT_COUNT || start > end) {
        return bad(err, errlen, "start and end are not slots in order", r, 0);
    }
    for (k = 2; k < e->elements; k++) {
        if (check_node(e->element[k], asked, k == 2 ? &master : &replica, err, errlen, r, k - 1) < 0) {
            return -1;
        }
    }
    for (s = start; s <= end; s++) {
        if (seen[s / 8] & (1u << (s % 8))) {
            char what[64];
            snprintf(what, sizeof what, "slot %lld is in an earlier range too", s);
            return bad(err, errlen, what, r, 0);
        }
        seen[s / 8] |= (unsigned char)(1u << (s % 8));
    }
    if (master.host == NULL) {
        return 0;
    }
    i = find_node(m, master.host, master.len, master.port, *hint);
    if (i < 0) {
        if (m->nnodes >= RL_SLOT_MAX_NODES) {
            char what[64];
            snprintf(what, sizeof what, "more than %d masters", RL_SLOT_MAX_NODES);
            return bad(err, errlen, what, r, 0);
        }
        i = (int)m->nnodes++;
        node_put(m, (unsigned)i, master.host, master.len, master.port);
    }
    *hint = i;
    for (s = start; s <= end; s++) {
        m->owner[s] = (uint16_t)i;
    }
    return 0;
}

int rl_slot_map_from_reply(rl_slot_map *m, const void *reply, const char *asked_host, char *err, size_t errlen)
{
    const redisReply *r = reply;
    unsigned char seen[RL_SLOT_COUNT / 8] = {0};
    int hint = -1;
    size_t i;

    rl_slot_map_clear(m);
    if (r->type == REDIS_REPLY_ERROR) {
        snprintf(err, errlen, "%.*s", (int)r->len, r->str);
        return -1;
    }
    if (r->type != REDIS_REPLY_ARRAY) {
        snprintf(err, errlen, "CLUSTER SLOTS: not an array (a reply of type %d)", r->type);
        return -1;
    }
    for (i = 0; i < r->elements; i++) {
        if (add_range(m, r->element[i], asked_host, seen, &hint, err, errlen, i + 1) < 0) {
            rl_slot_map_clear(m);
            return -1;
        }
    }
    return 0;
}
