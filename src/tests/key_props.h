/* The key names' properties (src/topology/rl_key_names.h), checked by the
 * unit test (unit_key_names.c) and the fuzz target (fuzz/fuzz_keys.c). */
#ifndef RL_KEY_PROPS_H
#define RL_KEY_PROPS_H
#include <stddef.h>

/* The letters of a lock's derived keys (rl_lock_keys.c's), NUL-ended. */
extern const char key_props_roles[];

/* One raw name: its lock key reads back as it (SCAN), each derived key of
 * it reads back as (lock key, letter), is listed as no lock and is not
 * the lock key. 0, or 1 with why set. */
int key_props_one(const char *raw, size_t len, char *why, size_t cap);

/* Two raw names: distinct names have distinct lock keys, no derived key
 * of one is the other's lock key or derived key, and neither's keys are
 * the wait-for edges key of a prefix equal to the other name. */
int key_props_pair(const char *a, size_t alen, const char *b, size_t blen, char *why, size_t cap);

/* The inverse the other way: whatever reads as a derived key is that
 * derivation's output byte for byte. */
int key_props_parse(const char *key, size_t len, char *why, size_t cap);

#endif
