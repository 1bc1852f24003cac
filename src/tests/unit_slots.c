/* Redis Cluster key slots: crc16 and key slots (vectors checked against
 * CLUSTER KEYSLOT of a redis-server 7.0), the derived keys' bases and
 * their letters. What a cluster answers (redirections, CLUSTER SLOTS) is
 * in unit_cluster_replies.c. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "../topology/rl_slots.h"

/* crc16/XMODEM bit by bit, to check the table-driven one against. */
static uint16_t crc_bits(const char *buf, size_t len)
{
    uint16_t crc = 0;
    size_t i;
    int b;
    for (i = 0; i < len; i++) {
        crc ^= (uint16_t)((unsigned char)buf[i] << 8);
        for (b = 0; b < 8; b++) {
            crc = (uint16_t)(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
        }
    }
    return crc;
}

/* The slot rule written out plainly, to check rl_key_slot against. */
static unsigned slot_plain(const char *k, size_t n)
{
    size_t open, close;
    for (open = 0; open < n && k[open] != '{'; open++) {
    }
    for (close = open + 1; close < n && k[close] != '}'; close++) {
    }
    if (open < n && close < n && close > open + 1) {
        return crc_bits(k + open + 1, close - open - 1) % 16384;
    }
    return crc_bits(k, n) % 16384;
}

static unsigned lcg_state = 12345;
static unsigned lcg(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return (lcg_state >> 16) & 0x7FFF;
}

UNIT_TEST(test_slots_crc16)
{
    char buf[64];
    int i, bad = 0;
    size_t j, n;

    CHECK(rl_crc16("123456789", 9) == 0x31C3, "crc16(123456789) = 0x%04x", rl_crc16("123456789", 9));
    CHECK(rl_crc16("", 0) == 0 && rl_crc16(NULL, 0) == 0, "crc16 of nothing");
    for (i = 0; i < 2000; i++) {
        n = lcg() % sizeof buf;
        for (j = 0; j < n; j++) {
            buf[j] = (char)lcg();
        }
        bad += rl_crc16(buf, n) != crc_bits(buf, n);
    }
    CHECK(bad == 0, "table and bitwise crc16 differ on %d random buffers", bad);
}

#define KS(lit) rl_key_slot(lit, sizeof lit - 1)

UNIT_TEST(test_slots_key_slot)
{
    /* Each number here is what redis-server 7.0.15 answered to CLUSTER KEYSLOT. */
    CHECK(KS("foo") == 12182, "foo: %u", KS("foo"));
    CHECK(KS("bar") == 5061, "bar: %u", KS("bar"));
    CHECK(KS("{user1000}.following") == 3443 && KS("{user1000}.followers") == 3443, "user1000 tags");
    CHECK(KS("foo{}{bar}") == 8363 && KS("foo{}{bar}") == rl_crc16("foo{}{bar}", 10) % 16384,
          "empty tag hashes the whole key: %u", KS("foo{}{bar}"));
    CHECK(KS("foo{{bar}}zap") == 4015 && KS("foo{{bar}}zap") == rl_crc16("{bar", 4) % 16384,
          "foo{{bar}}zap hashes {bar: %u", KS("foo{{bar}}zap"));
    CHECK(KS("foo{bar}{zap}") == 5061 && KS("foo{bar}{zap}") == KS("bar"), "first tag only");
    CHECK(KS("") == 0 && rl_key_slot(NULL, 0) == 0, "empty key");
    CHECK(KS("a}b") == 7866 && KS("x{}y}") == 1123 && KS("{}") == 15257 && KS("}") == 12090,
          "keys with braces but no tag");
    CHECK(KS("a\0b") == 8383, "NUL inside: %u", KS("a\0b"));
    CHECK(KS("{\0}x") == 0, "a NUL tag: %u", KS("{\0}x"));
    CHECK(KS("\0}\0") == 15877, "NUL and }: %u", KS("\0}\0"));
    CHECK(KS("k2136") == 100 && KS("a") == 15495 && KS("g") == 7233, "more keys");
    CHECK(KS("{") == rl_crc16("{", 1) % 16384 && KS("{a") == rl_crc16("{a", 2) % 16384, "no closing brace");
    CHECK(KS("}{a}") == KS("a"), "a } before the tag");
}

/* The first tag of each slot, by the rule rl_key_base documents, found by
 * enumerating every string of 1 to 4 bytes of [0-9a-z] once. */
static char first_tag[16384][5];
static unsigned long first_at[16384];

static void tags_init(void)
{
    static const char chars[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    static int done;
    unsigned long count = 0;
    char t[5];
    unsigned len, i, d;

    if (done) {
        return;
    }
    done = 1;
    for (len = 1; len <= 4; len++) {
        unsigned idx[4] = {0, 0, 0, 0};
        for (;;) {
            for (i = 0; i < len; i++) {
                t[i] = chars[idx[i]];
            }
            t[len] = '\0';
            count++;
            unsigned s = crc_bits(t, len) % 16384;
            if (first_tag[s][0] == '\0') {
                memcpy(first_tag[s], t, len + 1);
                first_at[s] = count;
            }
            for (d = len; d-- > 0;) {
                if (++idx[d] < 36) {
                    break;
                }
                idx[d] = 0;
            }
            if (d == (unsigned)-1) {
                break;
            }
        }
    }
}

UNIT_TEST(test_slots_tag_coverage)
{
    unsigned s, missing = 0, four = 0;
    unsigned long worst = 0;
    tags_init();
    for (s = 0; s < 16384; s++) {
        missing += first_tag[s][0] == '\0';
        four += strlen(first_tag[s]) == 4;
        worst = first_at[s] > worst ? first_at[s] : worst;
    }
    CHECK(missing == 0, "%u slots have no tag of 1 to 4 bytes", missing);
    CHECK(four > 0 && worst == 60822, "%u slots need 4 bytes, the worst after %lu candidates", four, worst);
    CHECK(strcmp(first_tag[0], "1bz") == 0 && strcmp(first_tag[5061], "bar") == 0, "first tags");
}

/* What rl_key_base should give for key, by its documented rule, into want
 * (len + 6 bytes); returns its length. */
static size_t base_expected(const char *key, size_t len, char *want)
{
    unsigned slot = slot_plain(key, len);
    size_t tlen = strlen(first_tag[slot]), open, close;
    int tagged;

    for (open = 0; open < len && key[open] != '{'; open++) {
    }
    for (close = open + 1; close < len && key[close] != '}'; close++) {
    }
    tagged = open < len && close < len && close > open + 1;
    if (tagged) {
        memcpy(want, key, len);
        return len;
    }
    if (len > 0 && memchr(key, '}', len) == NULL) {
        want[0] = '{';
        memcpy(want + 1, key, len);
        want[len + 1] = '}';
        return len + 2;
    }
    want[0] = '{';
    memcpy(want + 1, first_tag[slot], tlen);
    want[tlen + 1] = '}';
    memcpy(want + tlen + 2, key, len);
    return len + tlen + 2;
}

/* Checks rl_key_base on one key: its bytes, its length, its NUL, and that
 * suffixes without braces stay in the key's slot. Returns the failures. */
static int base_ok(const char *key, size_t len)
{
    static const char *const suffixes[] = {"\0q", "\0r", "\0w", "", ":x", "\0\0\0"};
    static const size_t slen[] = {2, 2, 2, 0, 2, 3};
    unsigned slot = rl_key_slot(key, len);
    size_t need = rl_key_base(key, len, NULL, 0), i;
    char *buf = malloc(need + 4), *want = malloc(len + 8);
    int fails = slot != slot_plain(key, len);

    memset(buf, 'X', need + 4);
    fails += rl_key_base(key, len, buf, need + 1) != need || buf[need] != '\0' || buf[need + 1] != 'X';
    fails += base_expected(key, len, want) != need || memcmp(buf, want, need) != 0;
    for (i = 0; i < sizeof slen / sizeof slen[0]; i++) {
        char *k = malloc(need + slen[i] + 1);
        memcpy(k, buf, need);
        memcpy(k + need, suffixes[i], slen[i]);
        fails += rl_key_slot(k, need + slen[i]) != slot || slot_plain(k, need + slen[i]) != slot;
        free(k);
    }
    free(buf);
    free(want);
    return fails;
}

#define BASE_IS(lit, expect)                                                                               \
    do {                                                                                                   \
        char b_[64];                                                                                       \
        size_t n_ = rl_key_base(lit, sizeof lit - 1, b_, sizeof b_);                                       \
        CHECK(n_ == sizeof expect - 1 && memcmp(b_, expect, n_) == 0 && base_ok(lit, sizeof lit - 1) == 0, \
              "base of %s: '%.*s' (%zu bytes)", #lit, (int)n_, b_, n_);                                    \
    } while (0)

UNIT_TEST(test_slots_key_base_shapes)
{
    char small[8];
    tags_init();
    BASE_IS("foo", "{foo}");
    BASE_IS("lock:1", "{lock:1}");
    BASE_IS("{user1000}.following", "{user1000}.following");
    BASE_IS("foo{bar}{zap}", "foo{bar}{zap}");
    BASE_IS("a{b", "{a{b}");
    BASE_IS("{", "{{}");
    BASE_IS("a\0b", "{a\0b}");
    BASE_IS("{\0}x", "{\0}x");
    BASE_IS("", "{1bz}");
    BASE_IS("foo{}{bar}", "{3ij}foo{}{bar}");
    BASE_IS("a}b", "{4w2}a}b");
    BASE_IS("x{}y}", "{31u}x{}y}");
    BASE_IS("{}", "{2ml}{}");
    BASE_IS("}", "{exv}}");
    BASE_IS("\0}\0", "{f5h}\0}\0");
    CHECK(rl_key_base("foo", 3, NULL, 0) == 5, "length asked with no buffer");
    memset(small, 'X', sizeof small);
    CHECK(rl_key_base("foo", 3, small, 1) == 5 && small[0] == '\0' && small[1] == 'X', "cap 1: only the NUL");
    memset(small, 'X', sizeof small);
    CHECK(rl_key_base("foo", 3, small, 3) == 5 && memcmp(small, "{f\0X", 4) == 0, "cap 3: cut, NUL-terminated");
    memset(small, 'X', sizeof small);
    CHECK(rl_key_base("foo", 3, small, 5) == 5 && memcmp(small, "{foo\0X", 6) == 0, "cap 5: one short");
    memset(small, 'X', sizeof small);
    CHECK(rl_key_base("a}b", 3, small, 4) == 8 && memcmp(small, "{4w\0X", 5) == 0, "cut inside the tag");
    memset(small, 'X', sizeof small);
    CHECK(rl_key_base("{u}", 3, small, 2) == 3 && memcmp(small, "{\0X", 3) == 0, "cut tagged key");
}

UNIT_TEST(test_slots_key_base_random)
{
    static const char alphabet[] = "{}ab";
    char key[16];
    int i, fails = 0, tagged = 0, braced = 0, searched = 0;
    size_t n, j;

    tags_init();
    for (i = 0; i < 6000; i++) {
        n = lcg() % sizeof key;
        for (j = 0; j < n; j++) {
            key[j] = alphabet[lcg() % 4];
        }
        size_t need = rl_key_base(key, n, NULL, 0);
        int has_close = n > 0 && memchr(key, '}', n) != NULL;
        tagged += need == n;
        braced += need == n + 2 && !has_close && n > 0;
        searched += need > n && (has_close || n == 0);
        fails += base_ok(key, n);
    }
    CHECK(fails == 0, "%d failures over 6000 keys of {}ab", fails);
    CHECK(tagged > 500 && braced > 500 && searched > 500, "all shapes seen: %d tagged, %d braced, %d searched", tagged,
          braced, searched);
    fails = 0;
    for (i = 0; i < 2000; i++) {
        n = lcg() % sizeof key;
        for (j = 0; j < n; j++) {
            key[j] = lcg() % 4 == 0 ? "{}\0"[lcg() % 3] : (char)lcg();
        }
        fails += base_ok(key, n);
    }
    CHECK(fails == 0, "%d failures over 2000 binary keys", fails);
}

UNIT_TEST(test_slots_key_base_long)
{
    size_t n = 100000, need;
    char *key = malloc(n);
    tags_init();
    memset(key, 'k', n);
    CHECK(base_ok(key, n) == 0 && rl_key_base(key, n, NULL, 0) == n + 2, "long key without braces");
    key[n / 2] = '}';
    need = rl_key_base(key, n, NULL, 0);
    CHECK(base_ok(key, n) == 0 && need > n + 2 && need <= n + 6, "long key with a }: %zu", need);
    key[10] = '{';
    CHECK(base_ok(key, n) == 0 && rl_key_base(key, n, NULL, 0) == n, "long key with a tag");
    key[11] = '}';
    CHECK(base_ok(key, n) == 0 && rl_key_base(key, n, NULL, 0) > n + 2, "long key with an empty tag");
    memset(key, '{', n);
    key[n - 1] = '}';
    CHECK(base_ok(key, n) == 0 && rl_key_base(key, n, NULL, 0) == n, "long key of { ending in }");
    free(key);
}

/* Derived keys keep the lock key as their prefix where they can (ACL
 * patterns such as "~lock:*" cover them) and always land in its slot. */
UNIT_TEST(test_slots_key_derived)
{
    static const char *const keys[] = {"lock:r",   "lock:{t}r",
                                       "lock:a}b", "lock:{}x",
                                       "lock:a{b", "x",
                                       "{a}",      "lock:{user1000}.following",
                                       "}{",       "lock:\xff\x01"};
    static const char letters[] = {'q', 'r', 'w'};
    char out[256], tag[4];
    size_t i, j, len, tlen;
    unsigned slot;

    for (slot = 0; slot < RL_SLOT_COUNT; slot++) {
        tlen = rl_slot_tag(slot, tag);
        CHECK(tlen >= 1 && tlen <= 4 && rl_crc16(tag, tlen) % RL_SLOT_COUNT == slot, "slot %u tag", slot);
    }
    CHECK(rl_slot_tag(RL_SLOT_COUNT, tag) == 0, "tag of a slot out of range");
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        size_t klen = strlen(keys[i]);
        for (j = 0; j < 3; j++) {
            len = rl_key_derived(keys[i], klen, letters[j], out, sizeof out);
            CHECK(rl_key_derived_letter_at(keys[i], klen) < len
                      && out[rl_key_derived_letter_at(keys[i], klen)] == letters[j]
                      && out[rl_key_derived_letter_at(keys[i], klen) - 1] == '\0',
                  "letter of '%s' not where said", keys[i]);
            CHECK(len < sizeof out && rl_key_slot(out, len) == rl_key_slot(keys[i], klen),
                  "derived '%s' %c: slot %u, want %u", keys[i], letters[j], rl_key_slot(out, len),
                  rl_key_slot(keys[i], klen));
            if (memchr(keys[i], '{', klen) == NULL || strcmp(keys[i], "lock:{t}r") == 0
                || strcmp(keys[i], "lock:{user1000}.following") == 0 || strcmp(keys[i], "{a}") == 0) {
                CHECK(memcmp(out, keys[i], klen) == 0 && out[klen] == '\0' && out[klen + 1] == letters[j],
                      "derived '%s' does not start with the key", keys[i]);
            }
        }
    }
    /* exact forms */
    len = rl_key_derived("lock:r", 6, 'q', out, sizeof out);
    CHECK(len == 13 && memcmp(out, "lock:r\0q{mio}", 13) == 0, "lock:r queue");
    len = rl_key_derived("lock:{t}r", 9, 'w', out, sizeof out);
    CHECK(len == 11 && memcmp(out, "lock:{t}r\0w", 11) == 0, "tagged wake stream");
    len = rl_key_derived("lock:a{b", 8, 'r', out, sizeof out);
    CHECK(len == 12 && memcmp(out, "{lock:a{b}\0r", 12) == 0, "a '{' without a tag: wrapped");
    /* cut like snprintf */
    len = rl_key_derived("lock:r", 6, 'q', out, 5);
    CHECK(len == 13 && memcmp(out, "lock", 5) == 0, "cut: '%s'", out);
    CHECK(rl_key_derived("lock:r", 6, 'q', NULL, 0) == 13, "length only");
}
