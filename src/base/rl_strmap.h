/* A small map from byte strings to malloc'd values, for the per-thread
 * caches of the topology (a Sentinel group's master, a Cluster's slot map):
 * a handful of entries, so a list. A value stays at its address until the
 * map is cleared (a node may keep a pointer to it). */
#ifndef RL_STRMAP_H
#define RL_STRMAP_H
#include <stddef.h>

typedef struct rl_strmap_entry rl_strmap_entry;

typedef struct rl_strmap {
    rl_strmap_entry *head;
} rl_strmap;

/* The value of key, or NULL. */
void *rl_strmap_get(const rl_strmap *m, const char *key, size_t len);

/* Sets key's value (taking it; an earlier value is freed). 0, or -1 when
 * out of memory (value is then freed). */
int rl_strmap_put(rl_strmap *m, const char *key, size_t len, void *value);

/* Frees key's entry and value, if any. */
void rl_strmap_del(rl_strmap *m, const char *key, size_t len);

/* Frees every entry and value. */
void rl_strmap_clear(rl_strmap *m);

#endif
