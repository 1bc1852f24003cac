/* The watchdog thread without a server: a node that refuses connections
 * makes a watched lock lost, max_hold caps it, removal while the thread
 * works is safe, and a forked child has no watchdog of its parent's. Run
 * under ThreadSanitizer too (run.sh). */
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "unit.h"
#include "unit_watch.h"
#include "../lock/rl_watchdog.h"
#include "../lock/rl_lockops.h"
#include "../base/rl_clock.h"

#if RL_HAVE_WATCHDOG

/* Polls id's state until it is want or ms run out. */
static int becomes(uint64_t id, int want, int ms)
{
    int64_t until, end = rl_now_us() + (int64_t)ms * 1000;
    while (rl_now_us() < end) {
        if (rl_watch_state(id, &until) == want) {
            return 1;
        }
        usleep(5000);
    }
    return 0;
}

static const char owner_a[1], owner_b[1]; /* two requests' threads */

void unit_watch_spec(rl_watch_spec *s, rl_endpoint *ep, const rl_endpoint **eps, long long ttl_ms, int64_t max_hold_us,
                     const void *owner)
{
    memset(ep, 0, sizeof *ep);
    ep->host = "127.0.0.1";
    ep->port = 1; /* nothing listens there: connection refused */
    eps[0] = ep;
    memset(s, 0, sizeof *s);
    s->eps = eps;
    s->n = s->quorum = 1;
    s->key = "lock:w";
    s->key_len = 6;
    s->token = "tok";
    s->token_len = 3;
    s->ttl_ms = ttl_ms;
    s->mode = RL_MODE_EXCLUSIVE;
    s->timeouts.connect_us = s->timeouts.reply_us = 200000;
    s->valid_until_us = rl_now_us() + ttl_ms * 1000;
    s->max_hold_us = max_hold_us;
    s->owner = owner;
}

static uint64_t watch_owned(long long ttl_ms, int64_t max_hold_us, const void *owner)
{
    rl_endpoint ep;
    const rl_endpoint *eps[1];
    rl_watch_spec s;
    unit_watch_spec(&s, &ep, eps, ttl_ms, max_hold_us, owner);
    return rl_watch_add(&s);
}

static uint64_t watch_refusing(long long ttl_ms, int64_t max_hold_us)
{
    return watch_owned(ttl_ms, max_hold_us, owner_a);
}

/* A PHP thread of a thread-safe PHP: adds, removes and clears its own
 * watches while the others do the same. */
static void *owner_thread(void *arg)
{
    uint64_t ids[20];
    int64_t until;
    int i, round, ok = 1;
    for (round = 0; round < 5; round++) {
        for (i = 0; i < 20; i++) {
            ids[i] = watch_owned(3 + i % 7, 0, arg);
            ok = ok && ids[i] != 0;
        }
        usleep(2000);
        for (i = 0; i < 10; i++) {
            rl_watch_remove(ids[i]);
        }
        rl_watch_clear(arg); /* its request ended: only its own watches go */
        for (i = 0; i < 20; i++) {
            ok = ok && rl_watch_state(ids[i], &until) == RL_WATCH_GONE;
        }
    }
    return ok ? arg : NULL;
}

UNIT_TEST(test_watchdog)
{
    uint64_t id, ids[50], ext, lost, other;
    int64_t until;
    int i, status;
    pid_t pid;

    id = watch_refusing(90, 0);
    CHECK(id != 0, "watch not added");
    CHECK(rl_watch_state(id, &until) == RL_WATCH_ACTIVE, "a new watch is active");
    CHECK(becomes(id, RL_WATCH_LOST, 2000), "a lock whose node refuses is not lost");
    rl_watch_counts(&ext, &lost);
    CHECK(ext == 0 && lost >= 1, "counts: %llu extended, %llu lost", (unsigned long long)ext, (unsigned long long)lost);
    rl_watch_remove(id);
    CHECK(rl_watch_state(id, &until) == RL_WATCH_GONE, "a removed watch is gone");

    id = watch_refusing(300, 20000); /* capped 20 ms in, before its first extension at 100 ms */
    CHECK(becomes(id, RL_WATCH_CAPPED, 2000), "max_hold does not cap");
    rl_watch_remove(id);

    /* removed while due and being extended: the thread frees what it held */
    for (i = 0; i < 50; i++) {
        ids[i] = watch_refusing(3 + i % 5, 0);
    }
    usleep(20000);
    for (i = 0; i < 50; i++) {
        rl_watch_remove(ids[i]);
    }
    id = watch_refusing(60, 0);
#ifndef __SANITIZE_THREAD__ /* ThreadSanitizer cannot follow threads started after fork (the ASan build does) */
    pid = fork();
    if (pid == 0) {
        uint64_t own;
        /* the parent's watch is not the child's; its own starts a thread */
        int ok = rl_watch_state(id, &until) == RL_WATCH_GONE;
        own = watch_refusing(60, 0);
        ok = ok && own != 0 && becomes(own, RL_WATCH_LOST, 2000);
        rl_watch_shutdown();
        _exit(ok ? 0 : 1);
    }
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "forked child: the parent's watch seen, or its own not working");
#else
    (void)pid;
    (void)status;
#endif
    CHECK(becomes(id, RL_WATCH_LOST, 2000), "the parent's watchdog goes on after fork");
    other = watch_owned(60, 0, owner_b);
    rl_watch_clear(owner_a);
    CHECK(rl_watch_state(id, &until) == RL_WATCH_GONE, "clear leaves a watch");
    CHECK(rl_watch_state(other, &until) != RL_WATCH_GONE, "clear by one owner removed another owner's watch");
    /* four threads at once, each clearing its own: the one watchdog serves all */
    {
        pthread_t t[4];
        static char owners[4];
        int started = 0;
        for (i = 0; i < 4; i++) {
            started += pthread_create(&t[i], NULL, owner_thread, &owners[i]) == 0;
        }
        CHECK(started == 4, "threads not started");
        for (i = 0; i < started; i++) {
            void *r = NULL;
            pthread_join(t[i], &r);
            CHECK(r == &owners[i], "thread %d: its watches not added, or not gone after its clear", i);
        }
    }
    CHECK(rl_watch_state(other, &until) != RL_WATCH_GONE, "the threads' clears removed another owner's watch");
    rl_watch_clear(owner_b);
    CHECK(rl_watch_state(other, &until) == RL_WATCH_GONE, "clear leaves a watch");
    rl_watch_shutdown();
    /* after shutdown, a new watch starts the thread again */
    id = watch_refusing(60, 0);
    CHECK(id != 0 && becomes(id, RL_WATCH_LOST, 2000), "no watchdog after a shutdown");
    rl_watch_shutdown();
}

#endif
