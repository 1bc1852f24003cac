/* The watchdog: a thread of its own that keeps extending the locks taken
 * with auto_extend, every third of their TTL, on connections of its own,
 * whatever the PHP code is doing. It never touches PHP memory: what it
 * watches is a malloc'd table under a mutex, filled and emptied by the
 * requests' threads through these functions (every PHP thread of a
 * thread-safe PHP shares the one watchdog of the process). It blocks every signal, starts
 * on the first lock it is given, is gone in a forked child (which starts
 * its own when it watches a lock), and is joined by rl_watch_shutdown().
 *
 * What leaks, and why: auto_extend reads as "held until released", but the
 * watchdog is a thread of the holder's process: a process stopped past the
 * TTL (SIGSTOP, a frozen VM, swap) stops it too, the lock expires and
 * another client takes it; only fencing turns the late write into a
 * refused one (docs/design/safety.md, "A holder paused past its TTL"). And
 * a forked child moves the parent's watches and connections aside without
 * freeing them (the parent's thread may have been inside them at the
 * fork): they stay reachable and unused for the child's life. */
#ifndef RL_WATCHDOG_H
#define RL_WATCHDOG_H
#include <stddef.h>
#include <stdint.h>
#include "rl_op.h"

/* What to keep extended. Copied by rl_watch_add(): nothing is kept. */
typedef struct rl_watch_spec {
    const rl_endpoint *const *eps; /* the lock's nodes, n of them */
    size_t n, quorum;
    const char *key, *token;
    size_t key_len, token_len;
    long long ttl_ms;
    int mode;            /* rl_mode: which extend form the lock needs */
    double drift_factor; /* RedLock: validity as rl_valid_until() says */
    int drift;
    rl_timeouts timeouts;
    int min_replicas;             /* > 0: each extend waits for this many replicas (WAIT) */
    long long replica_timeout_ms; /* and waits that long at most */
    int64_t valid_until_us;       /* from the acquisition */
    int64_t max_hold_us;          /* stop extending this long after the add; 0: never */
    const void *owner;            /* who added it (a PHP thread's request), for rl_watch_clear() */
    int timer_only;               /* never extended: only told lost (RL_WATCH_WHY_EXPIRED) when
                                      valid_until_us passes; needs on_lost, n may be 0 */
    /* When the watch turns lost (and a capped one, when its validity ends):
     * called by the watchdog thread, under its lock (never after
     * rl_watch_remove() or rl_watch_clear() of it returned); must only set a
     * flag. NULL: nobody is told. rl_watch_take_lost() says which and why. */
    void (*on_lost)(void *arg);
    void *on_lost_arg;
} rl_watch_spec;

/* Why a watch was told lost (rl_watch_take_lost()). */
#define RL_WATCH_WHY_EXPIRED 1 /* its validity ran out: not extended (timer, cap), or not in time */
#define RL_WATCH_WHY_LOST 2    /* the node said it is not ours: gone, or another's */
#define RL_WATCH_WHY_QUORUM 3  /* RedLock: too many nodes said it is not ours for a quorum */

/* A watched lock's state. */
#define RL_WATCH_ACTIVE 1 /* extended on time so far */
#define RL_WATCH_LOST 2   /* an extension failed: not held any more */
#define RL_WATCH_CAPPED 3 /* max_hold reached: no longer extended, expires by its TTL */
#define RL_WATCH_GONE 0   /* not watched (removed, or this process never had it) */

/* Non-zero when built with the thread (POSIX threads; RL_WATCHDOG). */
#ifdef RL_WATCHDOG
#define RL_HAVE_WATCHDOG 1
#else
#define RL_HAVE_WATCHDOG 0
#endif

/* Starts watching; the thread is started on first use. Returns the watch's
 * id (never 0), or 0 when out of memory or the thread cannot start. */
uint64_t rl_watch_add(const rl_watch_spec *spec);

/* Stops watching id (an extension under way finishes, harmlessly: it
 * compares the token). */
void rl_watch_remove(uint64_t id);

/* The request extended id itself (extend(), a re-entrant lock()): the
 * watchdog goes on with this TTL, from this validity (a timer watch is
 * timed from it); a lost watch is active again, its loss not told. */
void rl_watch_renewed(uint64_t id, long long ttl_ms, int64_t valid_until_us);

/* Stops watching every lock added with this owner (its request ended).
 * One thread serves the locks of every owner of the process (the threads of
 * a thread-safe PHP); the others' locks go on being extended. */
void rl_watch_clear(const void *owner);

/* id's state; *valid_until_us gets the end of its validity as of its last
 * extension (for RL_WATCH_ACTIVE and RL_WATCH_CAPPED). */
int rl_watch_state(uint64_t id, int64_t *valid_until_us);

/* The watches of owner told lost since the last call (at most max, their
 * ids and RL_WATCH_WHY_* reasons): each loss is returned once; a renewed
 * (rl_watch_renewed()) or removed watch's pending one is dropped. */
size_t rl_watch_take_lost(const void *owner, uint64_t *ids, int *whys, size_t max);

/* Extensions sent and failed so far by this process's watchdog (timer
 * watches never count). */
void rl_watch_counts(uint64_t *extended, uint64_t *lost);

/* Stops the thread and frees everything (module shutdown). */
void rl_watch_shutdown(void);

#endif
