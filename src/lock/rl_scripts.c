#include "rl_scripts.h"
#include <string.h>

/*
 * Every key a script touches is in its KEYS (Redis Cluster routes by them,
 * ACL key patterns and Redis Functions want them declared); none is built
 * in Lua. The keys of one lock live in its Cluster slot and start with the
 * lock key (rl_key_derived(): K "\0" letter, then "{T}" with T a tag of
 * K's slot when K has no hash tag of its own; rl_slots.h has the rare
 * forms, rl_key_names.h why no name can spell them), so "~lock:*" ACLs
 * cover them:
 *   K\0q  the waiters' queue (list), entries "<deadline ms>:<id>",
 *         deadline on the server's clock;
 *   K\0r  the woken waiter's reservation (its id, 200 ms): waiters
 *         looking again meanwhile do not take the lock first (FIFO);
 *   K\0A .. K\0P  the wake streams, one per bucket of waiters (the
 *         last hex digit of the waiter's id): a release appends one
 *         entry "w" = <id of the waiter it woke> to that waiter's
 *         stream; waiters block on theirs with XREAD from the last
 *         entry they saw, and only the one named acts; the last waiter
 *         to leave the queue deletes them. 16 streams, not one: every
 *         XREAD blocked on a stream returns at each entry, so with one
 *         stream a release woke every waiter (K waiters: K^2/2 wake-ups
 *         for K handoffs, measured by bench/stampede.php);
 *   K\0f  the fence counter (option "fencing"): INCR at every acquisition,
 *         no TTL (a fencing number must never go back);
 *   K\0s  the shared holders (sorted set: token => expiry, ms on the
 *         server's clock) while K holds the mark "\0shared", whose TTL
 *         is that of the longest shared holder.
 * A semaphore's permits are K itself, a sorted set token => expiry.
 * Waiters of shared locks have ids starting with 's' (others are hex): a
 * shared holder that comes in wakes the next waiter when it is one too.
 * A stream rather than a list per waiter: a list per waiter would need its
 * name built in Lua (the release only learns the id from the queue), and
 * one shared list would let one waiter take another's wake-up.
 */

/* The scripts' Lua is in src/lock/lua/, one .lua file per script with its
 * KEYS and ARGV in its header, the fragments they share in lua/lib/;
 * scripts/gen-lua.php writes it here as C strings, with each script's KEYS
 * (rl_scripts_lua.h: sources[], keys[]). */
#include "rl_scripts_lua.h"

static char shas[RL_SCRIPT_COUNT][41];

const char *rl_script_source(rl_script s)
{
    return sources[s];
}

void rl_script_set_sha(rl_script s, const char sha[41])
{
    memcpy(shas[s], sha, 40);
    shas[s][40] = '\0';
}

const char *rl_script_sha(rl_script s)
{
    return shas[s];
}

const rl_script_keys *rl_script_keys_of(rl_script s)
{
    return &keys[s];
}
