/* The core as a thread-safe PHP uses it (built with RL_THREADED, as
 * config.m4 does for a ZTS PHP): several PHP threads draw tokens at once
 * (each thread has its own random pool: no two tokens alike), name derived
 * keys at once (the slot table is filled once, whoever asks first) and ask
 * for the pid. Run under ThreadSanitizer by run.sh. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "../base/rl_token.h"
#include "../base/rl_pid.h"
#include "../topology/rl_slots.h"

#ifdef RL_THREADED

#define THREADS 4
#define PER_THREAD 500

static char tokens[THREADS][PER_THREAD][RL_TOKEN_LEN + 1];
static char tags[THREADS][64][4];
static size_t tag_lens[THREADS][64];
static pthread_barrier_t go;
static int ids[THREADS];

static void *draw(void *arg)
{
    int t = *(int *)arg, i, ok = 1;
    pthread_barrier_wait(&go);
    for (i = 0; i < 64; i++) {
        tag_lens[t][i] = rl_slot_tag((unsigned)(i * 251), tags[t][i]);
    }
    for (i = 0; i < PER_THREAD; i++) {
        ok = ok && rl_token_new(tokens[t][i]) == 0 && rl_pid() > 0;
    }
    return ok ? arg : NULL;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(a, b);
}

UNIT_TEST(test_threads)
{
    pthread_t th[THREADS];
    int t, i, started = 0, ok = 1, dup = 0, same_tags = 1;
    static char all[THREADS * PER_THREAD][RL_TOKEN_LEN + 1];

    pthread_barrier_init(&go, NULL, THREADS);
    for (t = 0; t < THREADS; t++) {
        ids[t] = t;
        started += pthread_create(&th[t], NULL, draw, &ids[t]) == 0;
    }
    CHECK(started == THREADS, "threads not started");
    for (t = 0; t < started; t++) {
        void *r = NULL;
        pthread_join(th[t], &r);
        ok = ok && r == &ids[t];
    }
    pthread_barrier_destroy(&go);
    CHECK(ok, "a thread could not draw its tokens");
    memcpy(all, tokens, sizeof all);
    qsort(all, THREADS * PER_THREAD, sizeof all[0], cmp);
    for (i = 1; i < THREADS * PER_THREAD; i++) {
        dup += strcmp(all[i], all[i - 1]) == 0;
    }
    CHECK(dup == 0, "%d duplicate tokens among %d drawn by %d threads at once", dup, THREADS * PER_THREAD, THREADS);
    for (t = 1; t < THREADS; t++) {
        for (i = 0; i < 64; i++) {
            same_tags = same_tags && tag_lens[t][i] == tag_lens[0][i] && tag_lens[t][i] > 0
                        && memcmp(tags[t][i], tags[0][i], tag_lens[0][i]) == 0;
        }
    }
    CHECK(same_tags, "threads filling the slot table at once saw different tags");
}

#endif
