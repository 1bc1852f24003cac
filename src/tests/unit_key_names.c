/* Key names (src/topology/rl_key_names.h): every name's lock key and
 * derived keys are distinct from every other name's, no name reaches
 * another's keys, and names that never did keep their keys. Checked on
 * every name of up to 4 bytes over a small alphabet of the bytes that
 * matter, and on names crafted as other names' keys. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "key_props.h"
#include "../topology/rl_key_names.h"
#include "../topology/rl_slots.h"

typedef struct entry {
    char *key;
    size_t len;
    size_t owner; /* the name's index */
    char role;    /* 0 the lock key, 'W' the edges key, else the letter */
} entry;

typedef struct names {
    char **s;
    size_t *len;
    size_t n, cap;
} names;

static void add_name(names *ns, const char *s, size_t len)
{
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? ns->cap * 2 : 1024;
        ns->s = realloc(ns->s, ns->cap * sizeof *ns->s);
        ns->len = realloc(ns->len, ns->cap * sizeof *ns->len);
    }
    ns->s[ns->n] = malloc(len + 1);
    memcpy(ns->s[ns->n], s, len);
    ns->len[ns->n++] = len;
}

static int by_key(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->key, y->key, n);
    return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

static int by_name(const void *a, const void *b)
{
    return by_key(a, b);
}

/* Leaves each name once (the crafted ones may repeat the enumerated). */
static void unique(names *ns)
{
    entry *e = malloc(ns->n * sizeof *e);
    size_t i, m = 0;
    for (i = 0; i < ns->n; i++) {
        e[i] = (entry){ns->s[i], ns->len[i], i, 0};
    }
    qsort(e, ns->n, sizeof *e, by_name);
    for (i = 0; i < ns->n; i++) {
        if (m > 0 && by_name(&e[i], &e[m - 1]) == 0) {
            free(e[i].key);
        } else {
            e[m++] = e[i];
        }
    }
    for (i = 0; i < m; i++) {
        ns->s[i] = e[i].key;
        ns->len[i] = e[i].len;
    }
    ns->n = m;
    free(e);
}

static char *derive(const char *k, size_t len, char letter, size_t *out_len)
{
    char *d;
    *out_len = rl_key_derived(k, len, letter, NULL, 0);
    d = malloc(*out_len + 1);
    rl_key_derived(k, len, letter, d, *out_len + 1);
    return d;
}

/* Names: every string of 1 to 4 bytes of the alphabet; then, for the
 * shorter ones as K, K's derived keys (as another name would craft them),
 * its escaped form, its base form and K "\0waits". */
static void make_names(names *ns)
{
    static const char alpha[] = {'a', '{', '}', '\0', 'q', 'x', 's', 'b'};
    size_t len, i, total, short_n = 0;
    char s[8], tag[4];
    for (len = 1; len <= 4; len++) {
        for (total = 1, i = 0; i < len; i++) {
            total *= sizeof alpha;
        }
        for (i = 0; i < total; i++) {
            size_t v = i, j;
            for (j = 0; j < len; j++, v /= sizeof alpha) {
                s[j] = alpha[v % sizeof alpha];
            }
            add_name(ns, s, len);
        }
        if (len == 3) {
            short_n = ns->n;
        }
    }
    for (i = 0; i < short_n; i++) {
        const char *letters = "qfxwA";
        size_t dl, j, bl;
        char *d, *base;
        for (j = 0; letters[j] != '\0'; j++) {
            d = derive(ns->s[i], ns->len[i], letters[j], &dl);
            add_name(ns, d, dl);
            free(d);
        }
        bl = rl_key_base(ns->s[i], ns->len[i], NULL, 0);
        base = malloc(bl + 7);
        rl_key_base(ns->s[i], ns->len[i], base, bl + 1);
        add_name(ns, base, bl);
        memcpy(base, ns->s[i], ns->len[i]);
        memcpy(base + ns->len[i], "\0waits", 6);
        add_name(ns, base, ns->len[i] + 6);
        free(base);
        /* "{T}" K with T K's slot's tag, whatever K is */
        bl = rl_slot_tag(rl_key_slot(ns->s[i], ns->len[i]), tag);
        base = malloc(bl + 2 + ns->len[i]);
        base[0] = '{';
        memcpy(base + 1, tag, bl);
        base[bl + 1] = '}';
        memcpy(base + bl + 2, ns->s[i], ns->len[i]);
        add_name(ns, base, bl + 2 + ns->len[i]);
        free(base);
    }
}

UNIT_TEST(test_key_names_properties)
{
    names ns = {0};
    entry *e;
    size_t i, j, n = 0, dups = 0, ones = 0, parses = 0;
    char why[160] = "";
    make_names(&ns);
    unique(&ns);
    e = malloc(ns.n * (2 + strlen(key_props_roles)) * sizeof *e);
    for (i = 0; i < ns.n; i++) {
        size_t ll = rl_key_lock(ns.s[i], ns.len[i], NULL, 0);
        char *lock = malloc(ll + 1);
        rl_key_lock(ns.s[i], ns.len[i], lock, ll + 1);
        if (key_props_one(ns.s[i], ns.len[i], why, sizeof why) != 0 && ones++ == 0) {
            CHECK(0, "name %zu: %s", i, why);
        }
        if (key_props_parse(ns.s[i], ns.len[i], why, sizeof why) != 0 && parses++ == 0) {
            CHECK(0, "name %zu: %s", i, why);
        }
        e[n++] = (entry){lock, ll, i, 0};
        for (j = 0; key_props_roles[j] != '\0'; j++) {
            size_t dl;
            char *d = derive(lock, ll, key_props_roles[j], &dl);
            e[n++] = (entry){d, dl, i, key_props_roles[j]};
        }
        e[n].key = malloc(ns.len[i] + 6); /* the edges key of a prefix equal to the name */
        memcpy(e[n].key, ns.s[i], ns.len[i]);
        memcpy(e[n].key + ns.len[i], "\0waits", 6);
        e[n].len = ns.len[i] + 6;
        e[n].owner = i;
        e[n++].role = 'W';
    }
    qsort(e, n, sizeof *e, by_key);
    for (i = 1; i < n; i++) {
        if (by_key(&e[i - 1], &e[i]) == 0 && dups++ == 0) {
            CHECK(0, "names %zu and %zu (roles %d, %d) share a key", e[i - 1].owner, e[i].owner, e[i - 1].role,
                  e[i].role);
        }
    }
    CHECK(dups == 0 && ones == 0 && parses == 0, "%zu names, %zu keys: %zu shared, %zu/%zu names failed", ns.n, n, dups,
          ones, parses);
    CHECK(ns.n > 5000, "enough names (%zu)", ns.n);
    for (i = 0; i < n; i++) {
        free(e[i].key);
    }
    for (i = 0; i < ns.n; i++) {
        free(ns.s[i]);
    }
    free(e);
    free(ns.s);
    free(ns.len);
}

/* What a lock key is: the name itself unless it reads as one of ours. */
#define LOCK_IS(raw, want, what)                                               \
    do {                                                                       \
        char b_[96];                                                           \
        size_t n_ = rl_key_lock(raw, sizeof raw - 1, b_, sizeof b_);           \
        CHECK(n_ == sizeof want - 1 && memcmp(b_, want, n_) == 0, "%s", what); \
    } while (0)

UNIT_TEST(test_key_names_kept_and_escaped)
{
    char fence[64], tag[4];
    size_t fl, tl, at, n;
    LOCK_IS("lock:acct", "lock:acct", "a plain name keeps its key");
    LOCK_IS("lock:a\0b", "lock:a\0b", "a name with a NUL keeps its key");
    LOCK_IS("lock:{order}:42", "lock:{order}:42", "a tagged name keeps its key");
    LOCK_IS("lock:a{b", "lock:a{b", "a name with a '{' and no tag keeps its key");
    n = rl_key_lock("lock:\0waits", 11, fence, sizeof fence);
    tl = rl_slot_tag(rl_key_slot("lock:\0waits", 11), tag);
    CHECK(n == 11 + 2 + tl + 2 && memcmp(fence, "lock:\0waits\0x{", 14) == 0, "an edges key's name is escaped");
    /* the name: acct's fence counter as a resource */
    fl = rl_key_derived("lock:acct", 9, 'f', fence, sizeof fence);
    CHECK(rl_key_reserved(fence, fl), "acct's fence counter is a reserved name");
    n = rl_key_lock(fence, fl, NULL, 0);
    CHECK(n == fl + 2 && !rl_key_reserved("lock:acct", 9), "its lock key is another key (%zu)", n);
    tl = rl_slot_tag(rl_key_slot("lock:acct", 9), tag);
    CHECK(fl == 9 + 2 + tl + 2, "the fence counter's shape");
    /* "a{" and "{a{}": one's base form is the other; no key shared */
    {
        char d1[16], d2[16];
        size_t n1 = rl_key_derived("a{", 2, 'q', d1, sizeof d1), n2 = rl_key_derived("{a{}", 4, 'q', d2, sizeof d2);
        CHECK(n1 == 6 && memcmp(d1, "{a{}\0q", 6) == 0, "a key without a tag: the base form");
        CHECK(n2 == 8 && memcmp(d2, "{a{}\0q{}", 8) == 0, "the tagged key that is its base form: \"{}\" after");
    }
    CHECK(rl_key_listed("lock:a\0b", 8, &at, &n) && at == 0 && n == 8, "a name with a NUL is listed");
    CHECK(rl_key_listed("lock:{t}a\0b", 11, &at, &n) && at == 0 && n == 11 && !rl_key_reserved("lock:{t}a\0b", 11),
          "a derived key's shape with a letter of none of ours is a name of its own");
    CHECK(!rl_key_listed("lock:\0waits", 11, &at, &n), "the edges key is not listed");
    CHECK(!rl_key_listed(fence, fl, &at, &n), "a fence counter is not listed");
}
