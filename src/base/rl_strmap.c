#include "rl_strmap.h"
#include <stdlib.h>
#include <string.h>

struct rl_strmap_entry {
    rl_strmap_entry *next;
    void *value;
    size_t len;
    char key[];
};

static rl_strmap_entry **find(const rl_strmap *m, const char *key, size_t len)
{
    rl_strmap_entry **at = (rl_strmap_entry **)&m->head;
    for (; *at != NULL; at = &(*at)->next) {
        if ((*at)->len == len && memcmp((*at)->key, key, len) == 0) {
            break;
        }
    }
    return at;
}

void *rl_strmap_get(const rl_strmap *m, const char *key, size_t len)
{
    rl_strmap_entry *e = *find(m, key, len);
    return e ? e->value : NULL;
}

int rl_strmap_put(rl_strmap *m, const char *key, size_t len, void *value)
{
    rl_strmap_entry **at = find(m, key, len), *e = *at;
    if (e != NULL) {
        free(e->value);
        e->value = value;
        return 0;
    }
    e = malloc(sizeof *e + len);
    if (e == NULL) {
        free(value);
        return -1;
    }
    e->next = NULL;
    e->value = value;
    e->len = len;
    memcpy(e->key, key, len);
    *at = e;
    return 0;
}

void rl_strmap_del(rl_strmap *m, const char *key, size_t len)
{
    rl_strmap_entry **at = find(m, key, len), *e = *at;
    if (e != NULL) {
        *at = e->next;
        free(e->value);
        free(e);
    }
}

void rl_strmap_clear(rl_strmap *m)
{
    rl_strmap_entry *e, *next;
    for (e = m->head; e != NULL; e = next) {
        next = e->next;
        free(e->value);
        free(e);
    }
    m->head = NULL;
}
