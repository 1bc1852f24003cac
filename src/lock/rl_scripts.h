/* The Lua scripts the lock commands run, and their SHA1s (computed once by
 * the host at start-up, so the text and the digest can never disagree). */
#ifndef RL_SCRIPTS_H
#define RL_SCRIPTS_H
#include <stddef.h>

/* RL_SCRIPT_<NAME> of each src/lock/lua/<name>.lua, and RL_SCRIPT_COUNT. */
#include "rl_scripts_enum.h"

/* What a script's KEYS[i] is (rl_scripts.c's comment has the key names). */
typedef enum rl_key_role {
    RL_KEY_LOCK,        /* the lock key itself (a semaphore's permits) */
    RL_KEY_QUEUE,       /* K\0q */
    RL_KEY_RESERVATION, /* K\0r */
    RL_KEY_FENCE,       /* K\0f */
    RL_KEY_SHARED,      /* K\0s */
    RL_KEY_WAKE,        /* K\0A .. K\0P, RL_WAKE_BUCKETS keys, always last */
    RL_KEY_OWN_WAKE     /* the one of them a waiter reads (its id's bucket) */
} rl_key_role;

/* A script's KEYS in order (its file's "--@keys" line): n roles, and a bit
 * per position the caller may leave out (only after the others). */
typedef struct rl_script_keys {
    unsigned char n;
    unsigned char role[6];
    unsigned char optional;
} rl_script_keys;

/* The KEYS of script s. */
const rl_script_keys *rl_script_keys_of(rl_script s);

/* The script's source text. */
const char *rl_script_source(rl_script s);

/* Stores the lowercase hex SHA1 of rl_script_source(s). */
void rl_script_set_sha(rl_script s, const char sha[41]);

/* The stored SHA1 ("" until set). */
const char *rl_script_sha(rl_script s);

/* What a refusal of scripts is told as: the server's words, then what it
 * costs and what mends it. */
#define RL_SCRIPTS_REFUSED_HINT                                                                                  \
    " (the server refuses Lua scripts: give the user +@scripting, or load its Lua module; without scripts only " \
    "lock() and unlock() work, and only where the server has DELEX or DELIFEQ)"

/* Told with a refusal that came after a fresh connection's SET NX had
 * taken the key (rl_caps_cannot_release()). */
#define RL_SCRIPTS_REFUSED_TAKEN " (the lock's key was set before the refusal was read: it ends by its TTL)"

#endif
