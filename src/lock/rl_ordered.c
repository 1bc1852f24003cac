#include "rl_ordered.h"
#include "rl_manyops.h"

/* The take waited for a later resource while the earlier ones' TTLs ran:
 * one taken before a long wait may have expired, and another client taken
 * it, by the time the last is had. Every earlier one whose validity fell
 * below nine tenths of the last one's is extended now (an expired one is
 * not ours any more: the call fails and releases what it took). 1 when
 * all are held, 0 when one was lost, -1 failed. */
static int refresh_taken(const rl_ordered *t)
{
    int64_t last, floor_us, until;
    size_t i;

    if (!t->validity(t->ctx, t->n - 1, &last)) {
        return 1;
    }
    floor_us = last - (last - t->now_us()) / 10;
    for (i = 0; i + 1 < t->n; i++) {
        int r;
        if (t->validity(t->ctx, i, &until) && until >= floor_us) {
            continue;
        }
        r = t->extend(t->ctx, i);
        if (r != 1) {
            return r < 0 || t->failed(t->ctx) ? -1 : 0;
        }
    }
    /* one call, one validity: the earliest any of them runs out, so that
     * the validity of any resource never outlasts another's key */
    for (i = 0; i < t->n; i++) {
        if (t->validity(t->ctx, i, &until) && until < last) {
            last = until;
        }
    }
    for (i = 0; i < t->n; i++) {
        if (t->validity(t->ctx, i, &until)) {
            t->set_validity(t->ctx, i, last);
        }
    }
    return 1;
}

int rl_ordered_take(const rl_ordered *t)
{
    char recorded[RL_MANY_MAX] = {0}; /* taken by this call (not held before) */
    size_t i, j, taken = 0;
    int64_t until;
    int r = 1;

    if (t->n == 0 || t->n > RL_MANY_MAX) {
        return 0; /* lockMany() takes 1 to RL_MANY_MAX */
    }
    for (i = 0; i < t->n && r == 1; i++) {
        int before = t->validity(t->ctx, i, &until), got = 0;
        r = t->take(t->ctx, i, &got);
        if (got) {
            taken = i + 1; /* also one taken before what failed */
            recorded[i] = !before;
        }
    }
    if (r == 1) {
        r = refresh_taken(t);
    }
    if (r == 0 && !t->failed(t->ctx) && !t->owner && taken == t->n && t->now_us() < t->deadline_us) {
        /* one was lost during the wait for a later one: all again, in order */
        for (j = 0; j < taken; j++) {
            t->release(t->ctx, j);
        }
        return rl_ordered_take(t);
    }
    for (j = 0; r != 1 && j < taken; j++) {
        if (!t->owner) {
            t->release(t->ctx, j);
        } else if (recorded[j]) {
            /* a caller's token may have held some of them before: all kept
             * in Redis, but not as the caller's */
            t->forget(t->ctx, j);
        }
    }
    return r != 1 && t->failed(t->ctx) ? -1 : r;
}
