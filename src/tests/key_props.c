/* The key names' properties (key_props.h). */
#include "key_props.h"
#include "../topology/rl_key_names.h"
#include "../topology/rl_slots.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char key_props_roles[] = "qrfsABCDEFGHIJKLMNOP";

typedef struct kbuf {
    char *s;
    size_t n;
} kbuf;

static kbuf lock_of(const char *raw, size_t len)
{
    kbuf k;
    k.n = rl_key_lock(raw, len, NULL, 0);
    k.s = malloc(k.n + 1);
    rl_key_lock(raw, len, k.s, k.n + 1);
    return k;
}

static kbuf derived_of(kbuf lock, char letter)
{
    kbuf k;
    k.n = rl_key_derived(lock.s, lock.n, letter, NULL, 0);
    k.s = malloc(k.n + 1);
    rl_key_derived(lock.s, lock.n, letter, k.s, k.n + 1);
    return k;
}

static int same(kbuf a, const char *s, size_t n)
{
    return a.n == n && memcmp(a.s, s, n) == 0;
}

#define FAIL(...)                        \
    do {                                 \
        snprintf(why, cap, __VA_ARGS__); \
        bad = 1;                         \
        goto out;                        \
    } while (0)

int key_props_one(const char *raw, size_t len, char *why, size_t cap)
{
    kbuf lock = lock_of(raw, len), d = {NULL, 0};
    size_t at, n, i;
    char letter;
    int bad = 0;
    if (!rl_key_listed(lock.s, lock.n, &at, &n) || at + n > lock.n || n != len || memcmp(lock.s + at, raw, len) != 0) {
        FAIL("the lock key does not list as its name");
    }
    for (i = 0; key_props_roles[i] != '\0'; i++) {
        d = derived_of(lock, key_props_roles[i]);
        if (same(d, lock.s, lock.n)) {
            FAIL("derived key %c is the lock key", key_props_roles[i]);
        }
        if (!rl_key_parse(d.s, d.n, &at, &n, &letter) || letter != key_props_roles[i] || at + n > d.n || n != lock.n
            || memcmp(d.s + at, lock.s, n) != 0) {
            FAIL("derived key %c does not read back as its lock key", key_props_roles[i]);
        }
        if (rl_key_listed(d.s, d.n, &at, &n)) {
            FAIL("derived key %c is listed as a lock", key_props_roles[i]);
        }
        free(d.s);
        d.s = NULL;
    }
out:
    free(d.s);
    free(lock.s);
    return bad;
}

int key_props_pair(const char *a, size_t alen, const char *b, size_t blen, char *why, size_t cap)
{
    kbuf la = lock_of(a, alen), lb = lock_of(b, blen), da = {NULL, 0}, db = {NULL, 0};
    size_t i, j, elen = blen + 6;
    char *edges = malloc(elen);
    int bad = 0, distinct = alen != blen || memcmp(a, b, alen) != 0;
    memcpy(edges, b, blen);
    memcpy(edges + blen, "\0waits", 6);
    if (distinct && same(la, lb.s, lb.n)) {
        FAIL("two names, one lock key");
    }
    if (same(la, edges, elen)) {
        FAIL("a lock key is a prefix's edges key");
    }
    for (i = 0; key_props_roles[i] != '\0'; i++) {
        da = derived_of(la, key_props_roles[i]);
        if (same(da, lb.s, lb.n) || same(da, edges, elen)) {
            FAIL("derived key %c of one name is the other's lock key or an edges key", key_props_roles[i]);
        }
        /* a lock's derived keys all have one length: other lengths never meet */
        for (j = 0; distinct && da.n == rl_key_derived(lb.s, lb.n, 'q', NULL, 0) && key_props_roles[j] != '\0'; j++) {
            db = derived_of(lb, key_props_roles[j]);
            if (same(db, da.s, da.n)) {
                FAIL("two names share a derived key (%c, %c)", key_props_roles[i], key_props_roles[j]);
            }
            free(db.s);
            db.s = NULL;
        }
        free(da.s);
        da.s = NULL;
    }
out:
    free(da.s);
    free(db.s);
    free(edges);
    free(la.s);
    free(lb.s);
    return bad;
}

int key_props_parse(const char *key, size_t len, char *why, size_t cap)
{
    size_t at, n;
    char letter;
    kbuf k = {NULL, 0}, d = {NULL, 0};
    int bad = 0;
    if (rl_key_parse(key, len, &at, &n, &letter)) {
        if (at + n > len) {
            FAIL("read back out of bounds");
        }
        k.s = malloc(n + 1);
        memcpy(k.s, key + at, n);
        k.n = n;
        d = derived_of(k, letter);
        if (!same(d, key, len)) {
            FAIL("read back as a key whose derivation differs");
        }
    }
out:
    free(k.s);
    free(d.s);
    return bad;
}
