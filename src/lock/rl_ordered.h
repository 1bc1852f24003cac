/* The ordered take of several resources (lockMany() on a Cluster whose
 * resources span slots, or with fencing): one by one in a fixed order, each
 * as a lock of the call's token, waiting within the call's deadline (the
 * fixed order means two such calls never wait for each other); what was
 * taken is released when one is not had. A resource taken before a long
 * wait for a later one is extended once the last is had, and all are
 * taken again in order if one was lost meanwhile. The caller gives how to
 * take, extend, release and look up one resource (ext/rl_method_many.c binds them
 * to an object's held locks); this file knows no PHP. */
#ifndef RL_ORDERED_H
#define RL_ORDERED_H
#include <stddef.h>
#include <stdint.h>

typedef struct rl_ordered {
    size_t n;  /* the resources, 0 .. n - 1 in the order taken
                           (1 .. RL_MANY_MAX) */
    int owner; /* the token is the caller's: it may hold some of
                           them from before (kept, never released here) */
    int64_t deadline_us;
    /* Takes resource i (waiting until the deadline): 1 had, 0 not, -1
     * failed (the caller's error pending). *got: the call holds it now
     * (also with -1, when what failed came after the take). */
    int (*take)(void *ctx, size_t i, int *got);
    /* 1 and *until_us its validity's end when the call's token holds
     * resource i (as far as the caller knows), else 0. */
    int (*validity)(void *ctx, size_t i, int64_t *until_us);
    void (*set_validity)(void *ctx, size_t i, int64_t until_us);
    /* Extends resource i: 1, 0 when it was lost, -1 failed. */
    int (*extend)(void *ctx, size_t i);
    /* Releases resource i (a pending error stays the call's). */
    void (*release)(void *ctx, size_t i);
    /* Forgets resource i as the caller's (an owner's token: kept in Redis). */
    void (*forget)(void *ctx, size_t i);
    /* Non-zero when an error is pending (the caller's exception). */
    int (*failed)(void *ctx);
    int64_t (*now_us)(void);
    void *ctx;
} rl_ordered;

/* Takes every resource: 1 when all are held (each with the validity of the
 * first to run out), 0 when one was not had (those taken released), -1
 * with the caller's error pending. */
int rl_ordered_take(const rl_ordered *t);

#endif
