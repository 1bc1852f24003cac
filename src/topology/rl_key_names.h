/* Which key names are whose: a lock's own key, the keys derived from it
 * (rl_key_derived(), src/topology/rl_slots.h) and the prefix's wait-for
 * edges key ("\0waits") share one keyspace with the names users give, and
 * a name may hold any byte, NUL too. So the lock key of a name (the prefix
 * and the resource, "raw") is the raw name itself unless the raw name
 * reads as one of the library's own keys (a derived key with one of the
 * library's letters, rl_key_names.c, or ends in "\0waits"): its lock key is
 * rl_key_derived(raw, 'x') instead, a key no other name can have. Every
 * other name keeps the key it always had (upgrades: docs/operations.md).
 * Keys are binary: every key comes with its length. */
#ifndef RL_KEY_NAMES_H
#define RL_KEY_NAMES_H
#include <stddef.h>

/* The letter of an escaped name's lock key (no role of rl_lock_keys.h). */
#define RL_KEY_ESCAPED 'x'

/* Reads a derived key back: 1 when key is rl_key_derived(K, letter) for a
 * K and a letter of [A-Za-z], with K at key[*k_at .. *k_at + *k_len) and
 * the letter in *letter; else 0. */
int rl_key_parse(const char *key, size_t len, size_t *k_at, size_t *k_len, char *letter);

/* Whether raw reads as one of the library's own keys (then it is escaped). */
int rl_key_reserved(const char *raw, size_t len);

/* The lock key of raw (the prefix, then the resource). Like snprintf:
 * writes at most cap - 1 bytes and a NUL when cap > 0 (out may be NULL
 * when cap is 0) and returns the whole length. */
size_t rl_key_lock(const char *raw, size_t len, char *out, size_t cap);

/* A key found under the prefix (SCAN): 1 when it is a lock key, with its
 * raw name at key[*raw_at .. *raw_at + *raw_len); 0 for a derived key, an
 * edges key or an escaped form nobody has. */
int rl_key_listed(const char *key, size_t len, size_t *raw_at, size_t *raw_len);

#endif
