/* The scripts' KEYS tables (their files' "--@keys" lines) against their
 * Lua: no script names a KEYS[n] past the keys its table gives it. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "../lock/rl_lockops.h"
#include "../lock/rl_scripts.h"

UNIT_TEST(test_script_keys_cover_the_lua)
{
    int s, i;
    for (s = 0; s < RL_SCRIPT_COUNT; s++) {
        const rl_script_keys *k = rl_script_keys_of((rl_script)s);
        const char *p = rl_script_source((rl_script)s);
        int all = 0, highest = 0;
        CHECK(k->n > 0 && k->n <= 6, "script %d: %d keys", s, k->n);
        for (i = 0; i < k->n; i++) {
            all += k->role[i] == RL_KEY_WAKE ? RL_WAKE_BUCKETS : 1;
        }
        while ((p = strstr(p, "KEYS[")) != NULL) {
            p += 5;
            if (*p >= '0' && *p <= '9') {
                int n = atoi(p);
                highest = n > highest ? n : highest;
            }
        }
        CHECK(highest <= all, "script %d names KEYS[%d], its table gives %d keys", s, highest, all);
        /* the lock key, when there is one, is KEYS[1] */
        for (i = 1; i < k->n; i++) {
            CHECK(k->role[i] != RL_KEY_LOCK, "script %d: the lock key at %d", s, i + 1);
        }
    }
}
