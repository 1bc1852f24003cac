/* What a server offers beyond the commands every supported version has,
 * learned once per socket from the probes a fresh connection sends in its
 * first write (rl_identify_append(): no round trip of their own; their
 * replies are read among the discards, rl_conn.c). Forgotten when the
 * socket closes: the next one may reach another server (a failover, an
 * upgrade). Plain C, no PHP. */
#ifndef RL_CAPS_H
#define RL_CAPS_H
#include "rl_evict.h"

/* Room for a refusal's words (the server's, up to their echo of the
 * arguments) kept to tell the caller. */
#define RL_CAPS_REFUSAL_LEN 160

/* The SHA1 the scripts probe asks EVALSHA to run: no script's (it is the
 * SHA1 of no text we send), so a server that allows scripts answers
 * NOSCRIPT without running anything. */
#define RL_CAPS_NO_SCRIPT_SHA "0000000000000000000000000000000000000000"

typedef struct rl_caps {
    int msetex;                                /* MSETEX (lockMany()'s first form): -1 not known yet, 0 no, 1 yes */
    int delex;                                 /* DELEX key IFEQ value (Redis 8.4+, Valkey 9.2+): as msetex */
    int delifeq;                               /* DELIFEQ key value (Valkey 9.0+): as msetex */
    int evict;                                 /* the server can evict lock keys (rl_evict.h): RL_EVICT_UNKNOWN
                    until the reply to CONFIG GET maxmemory* is read, or when refused */
    char evict_policy[RL_EVICT_POLICY_LEN];    /* RL_EVICT_RISKY: its maxmemory-policy */
    int scripts;                               /* EVALSHA allowed: -1 not known yet, 0 refused (an ACL without
                            @scripting, a server without Lua), 1 yes */
    char scripts_refusal[RL_CAPS_REFUSAL_LEN]; /* scripts == 0: the server's words */
} rl_caps;

/* The glob of COMMAND LIST FILTERBY PATTERN that lists the commands looked
 * for: msetex, delex and delifeq (and nothing else on Redis 7.0 to 8.6 or
 * Valkey 8 to 9.1; any other name it matches is ignored). One flat reply
 * of names, unlike COMMAND INFO's, which nests deeper than a lock reply may. */
#define RL_CAPS_PATTERN "[dm]*e[xq]"

/* The probes a fresh connection sends, in this order, after it names
 * itself (rl_identify_append()); rl_conn's probe_in[] counts the discards
 * read before each one's reply. */
typedef enum rl_probe {
    RL_PROBE_COMMANDS, /* COMMAND LIST FILTERBY PATTERN RL_CAPS_PATTERN: msetex, delex, delifeq */
    RL_PROBE_EVICT,    /* CONFIG GET maxmemory*: evict, evict_policy (rl_evict_judge()) */
    RL_PROBE_SCRIPTS,  /* EVALSHA RL_CAPS_NO_SCRIPT_SHA 0: scripts, scripts_refusal */
    RL_PROBE_COUNT
} rl_probe;

/* Reads the reply to probe which into caps (see each probe above). */
void rl_caps_from_probe(rl_caps *caps, rl_probe which, const void *reply);

/* Everything not known (a fresh or closed socket). */
void rl_caps_forget(rl_caps *caps);

/* Reads the reply (a redisReply *) to COMMAND LIST FILTERBY PATTERN
 * RL_CAPS_PATTERN into msetex, delex and delifeq: 1 for each name listed
 * (any case), else 0. An error (a server without COMMAND LIST, an ACL) or
 * a reply of another shape is 0 for all three: not known to have them.
 * Reads only inside the reply's declared bounds. */
void rl_caps_from_commands(rl_caps *caps, const void *reply);

/* Reads the reply to the scripts probe (EVALSHA RL_CAPS_NO_SCRIPT_SHA 0)
 * into scripts: NOSCRIPT is 1; a refusal (rl_caps_scripts_refused()) is 0,
 * its words kept in scripts_refusal; anything else is -1, not known. */
void rl_caps_from_script_probe(rl_caps *caps, const void *reply);

/* Whether an error reply (len bytes, not NUL-terminated) refuses scripts
 * themselves rather than reporting a script's error: an ACL without
 * @scripting (NOPERM ... 'eval', 'evalsha', 'script'), or a server without
 * Lua (ERR unknown command 'EVAL...' or 'SCRIPT'; Valkey 9.1+ without its
 * Lua module: ERR Could not find scripting engine 'lua'). */
int rl_caps_scripts_refused(const char *err, size_t len);

/* How many of an error's len bytes to show: the server's words up to
 * their echo of the command's arguments (", with args ...": a key, a
 * token). */
size_t rl_caps_refusal_shown(const char *err, size_t len);

/* 1 when a lock taken on this server could not be released: it refuses
 * scripts and has no native release (neither DELEX nor DELIFEQ). */
int rl_caps_cannot_release(const rl_caps *caps);

#endif
