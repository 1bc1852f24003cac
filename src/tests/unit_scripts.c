/* The scripts' KEYS tables (their files' "--@keys" lines) against their
 * Lua: no script names a KEYS[n] past the keys its table gives it. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "../lock/rl_lockops.h"
#include "../lock/rl_scripts.h"
#include "../transport/rl_caps.h"

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

UNIT_TEST(test_scripts_refused)
{
    static const struct {
        const char *err;
        int refused;
    } cases[] = {
        {"NOPERM this user has no permissions to run the 'evalsha' command", 1},
        {"NOPERM this user has no permissions to run the 'eval' command", 1},
        {"NOPERM User u has no permissions to run the 'EVALSHA' command", 1},
        {"ERR unknown command 'EVALSHA', with args beginning with: 'abc' ", 1},
        {"ERR unknown command 'eval', with args beginning with: ", 1},
        {"ERR unknown command 'SCRIPT', with args beginning with: 'LOAD' ", 1},
        {"ERR Could not find scripting engine 'lua'", 1},
        {"ERR Could not find scripting", 0},
        {"NOPERM this user has no permissions to access one of the keys used as arguments", 0},
        {"NOPERM this user has no permissions to run the 'set' command", 0},
        {"ERR unknown command 'msetex', with args beginning with: ", 0},
        {"ERR user_script:1: Script attempted to access nonexistent global variable 'eval'", 0},
        {"NOSCRIPT No matching script. Please use EVAL.", 0},
        {"WRONGTYPE Operation against a key holding the wrong kind of value", 0},
        {"NOPERM", 0},
        {"ERR unknown command 'foo', with args beginning with: 'eval' ", 0},
        {"NOPERM this user has no permissions to run the 'set' command ('eval')", 0},
        {"", 0},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(rl_caps_scripts_refused(cases[i].err, strlen(cases[i].err)) == cases[i].refused, "case %zu: %s", i,
              cases[i].err);
    }
    /* the length is the bound: a refusal cut before its command's name is not one */
    CHECK(!rl_caps_scripts_refused("NOPERM this user has no permissions to run the 'evalsha' command", 45),
          "cut before the name");
}
