/* Which key names are whose (rl_key_names.h). */
#include "rl_key_names.h"
#include "rl_slots.h"
#include <string.h>

static const char edges_tail[6] = {'\0', 'w', 'a', 'i', 't', 's'};

static int is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* key ends in "\0" letter "{}": a tagged key that is another's base form. */
static int parse_braces(const char *key, size_t len, size_t *k_len, char *letter)
{
    size_t x = len - 4, inner;
    if (key[x] != '\0' || !is_letter(key[x + 1]) || !rl_key_has_tag(key, x) || !rl_key_is_base(key, x, &inner)) {
        return 0;
    }
    *k_len = x;
    *letter = key[x + 1];
    return 1;
}

/* key ends in "\0" letter "{T}": a key without '{' and its slot's tag. */
static int parse_untagged(const char *key, size_t len, size_t *k_len, char *letter)
{
    size_t p = len, x;
    char tag[4];
    while (p > 0 && key[p - 1] != '{') {
        p--;
    }
    if (p-- == 0 || p < 2 || !rl_slot_tag_shaped(key + p + 1, len - p - 2) || key[p - 2] != '\0'
        || !is_letter(key[p - 1])) {
        return 0;
    }
    x = p - 2;
    if (memchr(key, '{', x) != NULL || rl_slot_tag(rl_key_slot(key, x), tag) != len - p - 2
        || memcmp(tag, key + p + 1, len - p - 2) != 0) {
        return 0;
    }
    *k_len = x;
    *letter = key[p - 1];
    return 1;
}

/* key ends in "\0" letter: a tagged key's, or a base form's (K in it). */
static int parse_tagged(const char *key, size_t len, size_t *k_at, size_t *k_len, char *letter)
{
    size_t x = len - 2, inner;
    if (key[x] != '\0' || !is_letter(key[x + 1]) || !rl_key_has_tag(key, x)) {
        return 0;
    }
    if (rl_key_is_base(key, x, &inner)) { /* "{" K "}" or "{T}" K */
        *k_at = inner;
        *k_len = inner == 1 ? x - 2 : x - inner;
    } else {
        *k_at = 0;
        *k_len = x;
    }
    *letter = key[x + 1];
    return 1;
}

int rl_key_parse(const char *key, size_t len, size_t *k_at, size_t *k_len, char *letter)
{
    if (len < 2) {
        return 0;
    }
    *k_at = 0;
    if (len >= 4 && key[len - 1] == '}' && key[len - 2] == '{') {
        return parse_braces(key, len, k_len, letter);
    }
    if (key[len - 1] == '}') {
        return parse_untagged(key, len, k_len, letter);
    }
    return parse_tagged(key, len, k_at, k_len, letter);
}

/* The letters of the library's derived keys: a lock's (rl_lock_keys.c),
 * the one wake stream of builds before 16 ('w'), an escaped name's ('x').
 * A new kind of derived key adds its letter here. */
static const char ours[] = "qrfsABCDEFGHIJKLMNOPwx";

/* Whether key reads as a derived key of one of ours: K at *at, *n. */
static int parse_ours(const char *key, size_t len, size_t *at, size_t *n, char *letter)
{
    return rl_key_parse(key, len, at, n, letter) && strchr(ours, *letter) != NULL;
}

int rl_key_reserved(const char *raw, size_t len)
{
    size_t at, n;
    char letter;
    return (len >= sizeof edges_tail && memcmp(raw + len - sizeof edges_tail, edges_tail, sizeof edges_tail) == 0)
           || parse_ours(raw, len, &at, &n, &letter);
}

size_t rl_key_lock(const char *raw, size_t len, char *out, size_t cap)
{
    if (rl_key_reserved(raw, len)) {
        return rl_key_derived(raw, len, RL_KEY_ESCAPED, out, cap);
    }
    if (cap > 0) {
        size_t n = len < cap - 1 ? len : cap - 1;
        memcpy(out, raw, n);
        out[n] = '\0';
    }
    return len;
}

int rl_key_listed(const char *key, size_t len, size_t *raw_at, size_t *raw_len)
{
    char letter;
    if (len >= sizeof edges_tail && memcmp(key + len - sizeof edges_tail, edges_tail, sizeof edges_tail) == 0) {
        return 0;
    }
    if (!parse_ours(key, len, raw_at, raw_len, &letter)) {
        *raw_at = 0;
        *raw_len = len;
        return 1;
    }
    return letter == RL_KEY_ESCAPED && rl_key_reserved(key + *raw_at, *raw_len);
}
