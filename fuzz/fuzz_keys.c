/* libFuzzer target: the key names (src/topology/rl_key_names.h) on two
 * arbitrary names (the first byte: the first name's length), and on names
 * crafted from the first as other names' keys (its derived keys of any
 * letter, its base form, "{T}" before it). Checks (src/tests/key_props.h):
 * each name's lock key lists back as it, its derived keys read back as
 * (lock key, letter) and are never listed; two distinct names share no
 * key, no name's lock key is another's derived key or a prefix's edges
 * key; whatever reads as a derived key is that derivation's output. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/tests/key_props.c"

#define REQUIRE(call) do { if ((call) != 0) { fprintf(stderr, "violated: %s: %s\n", #call, why); abort(); } } while (0)

static void crafted(const char *a, size_t alen, char letter)
{
    char why[160] = "", tag[4];
    size_t n = rl_key_derived(a, alen, letter, NULL, 0), tl;
    char *d = malloc(n + 1 > alen + 6 ? n + 1 : alen + 6);
    rl_key_derived(a, alen, letter, d, n + 1);
    REQUIRE(key_props_pair(a, alen, d, n, why, sizeof why));
    REQUIRE(key_props_one(d, n, why, sizeof why));
    n = rl_key_base(a, alen, NULL, 0);
    free(d);
    d = malloc(n + 1);
    rl_key_base(a, alen, d, n + 1);
    REQUIRE(key_props_pair(a, alen, d, n, why, sizeof why));
    free(d);
    tl = rl_slot_tag(rl_key_slot(a, alen), tag);
    d = malloc(alen + tl + 2);
    d[0] = '{';
    memcpy(d + 1, tag, tl);
    d[tl + 1] = '}';
    memcpy(d + tl + 2, a, alen);
    REQUIRE(key_props_pair(a, alen, d, alen + tl + 2, why, sizeof why));
    free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[160] = "";
    const char *a, *b;
    size_t alen, blen;
    if (size < 2 || size > 4096) {
        return 0;
    }
    alen = data[0] < size - 1 ? data[0] : size - 1;
    a = (const char *)data + 1;
    b = a + alen;
    blen = size - 1 - alen;
    REQUIRE(key_props_one(a, alen, why, sizeof why));
    REQUIRE(key_props_one(b, blen, why, sizeof why));
    REQUIRE(key_props_parse(a, alen, why, sizeof why));
    REQUIRE(key_props_parse(b, blen, why, sizeof why));
    REQUIRE(key_props_pair(a, alen, b, blen, why, sizeof why));
    REQUIRE(key_props_pair(b, blen, a, alen, why, sizeof why));
    crafted(a, alen, blen > 0 && ((b[0] >= 'a' && b[0] <= 'z') || (b[0] >= 'A' && b[0] <= 'Z')) ? b[0] : 'f');
    return 0;
}
