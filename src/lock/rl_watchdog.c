#include "rl_watchdog.h"
#ifdef RL_WATCHDOG
#include "rl_quorum.h"
#include "../base/rl_clock.h"
#include "../base/rl_status.h"
#include "../base/rl_metrics.h"
#include "../topology/rl_slots.h"
#include "../base/rl_pid.h"
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One watched lock. Its settings never change once added but ttl_ms
 * (extend()), which, with state, times and the flags, changes under the
 * mutex only. */
typedef struct watch {
    uint64_t id;
    rl_endpoint *eps;
    size_t n, quorum;
    char *key, *token;
    size_t key_len, token_len;
    long long ttl_ms;
    int mode;
    double drift_factor;
    int drift;
    rl_timeouts timeouts;
    int min_replicas;
    long long replica_timeout_ms;
    int64_t started_us, max_hold_us, next_us, valid_until_us;
    const void *owner;
    int state;
    int timer_only; /* never extended (rl_watch_spec) */
    int told;       /* this validity's loss was told; renewed or extended: told again */
    void (*on_lost)(void *arg);
    void *on_lost_arg;
    int why;     /* a loss told and not yet taken (RL_WATCH_WHY_*), else 0 */
    int busy;    /* the thread is extending it, outside the mutex */
    int removed; /* removed while busy: the thread frees it */
    struct watch *next;
} watch;

/* The thread's own connections, one per connection identity (what the
 * pool would share, rl_endpoint_same_connection()); only it uses them. */
typedef struct wconn {
    rl_conn *conn;
    struct wconn *next;
} wconn;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv;
static int cv_ready;
static pthread_t thread;
static int running; /* the thread exists (in this process) */
static pid_t running_pid;
static int stopping;
static watch *watches;
static wconn *conns;
static uint64_t next_id = 1;
static uint64_t extended, lost;
/* When the waiting thread wakes up by itself (INT64_MAX: only when told);
 * 0 while it is awake (it looks at every watch before it waits again). An
 * add wakes it only when the new watch is due before that. */
static int64_t wake_at;
/* A forked child's copies of its parent's table and connections: never
 * used (the parent's thread may have been in the middle of them), kept
 * reachable so they are not reported as leaks; one per fork. */
static struct orphans {
    watch *watches;
    wconn *conns;
    struct orphans *older;
} * orphans;

static void free_watch(watch *w)
{
    size_t i;
    for (i = 0; i < w->n; i++) {
        rl_endpoint_clear(&w->eps[i]);
    }
    free(w->eps);
    free(w->key);
    if (w->token) {
        memset(w->token, 0, w->token_len);
    }
    free(w->token);
    free(w);
}

static void before_fork(void)
{
    pthread_mutex_lock(&mu);
}

static void after_fork_parent(void)
{
    pthread_mutex_unlock(&mu);
}

/* The child has no watchdog thread: it neither extends the parent's locks
 * nor waits on a mutex the thread held. Its own auto_extend locks start a
 * new thread. */
static void after_fork_child(void)
{
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    mu = fresh;
    cv_ready = 0;
    running = 0;
    stopping = 0;
    wake_at = 0;
    if (watches || conns) {
        struct orphans *o = malloc(sizeof *o);
        if (o) {
            o->watches = watches;
            o->conns = conns;
            o->older = orphans;
            orphans = o;
        }
        watches = NULL;
        conns = NULL;
    }
}

/* The thread's connection to ep (made closed on first use). */
static rl_conn *conn_for(const rl_endpoint *ep)
{
    wconn *c;
    for (c = conns; c; c = c->next) {
        if (rl_endpoint_same_connection(&c->conn->ep, ep)) {
            return c->conn;
        }
    }
    c = malloc(sizeof *c);
    if (c == NULL || (c->conn = rl_conn_new(ep, RL_ROLE_COMMAND)) == NULL) {
        free(c);
        return NULL;
    }
    c->next = conns;
    conns = c;
    return c->conn;
}

/* A Cluster master that answered MOVED or ASK for the key (its slot being
 * resharded): the extension is sent where it points, with ASKING for an
 * ASK; after a MOVED that node is the watch's from now on (only this
 * thread reads w->eps while the watch is busy). */
static void follow_redirect(watch *w, size_t i, const rl_lock_op *op, rl_vote *v, const rl_timeouts *t)
{
    rl_redirect rd;
    rl_endpoint ep;
    rl_conn *c;
    rl_lock_op again = *op;
    int kind = v->err.code == RL_E_REPLY ? rl_cluster_redirect(v->err.msg, strlen(v->err.msg), &rd) : 0;

    if (kind == 0 || rl_endpoint_copy(&ep, &w->eps[i]) != 0) {
        return;
    }
    if (!rd.same_host && rl_endpoint_set_str(&ep.host, rd.host, strlen(rd.host)) != 0) {
        rl_endpoint_clear(&ep);
        return;
    }
    ep.port = rd.port;
    c = conn_for(&ep);
    if (c != NULL) {
        again.asking = kind == RL_REDIRECT_ASK;
        memset(v, 0, sizeof *v);
        v->conn = c;
        rl_fanout(&again, v, 1, 1, 0, t);
        if (kind == RL_REDIRECT_MOVED && v->err.code == RL_OK) {
            rl_endpoint old = w->eps[i];
            w->eps[i] = ep;
            ep = old;
        }
    }
    rl_endpoint_clear(&ep);
}

/* One extension of w on all its nodes (outside the mutex: w's settings do
 * not change but a Cluster node after MOVED). Returns the new validity end; 0 when enough nodes said the
 * lock is not ours that no quorum can extend it (gone, taken over); -1 when
 * too few answered in time (a node down or slow: worth another try while
 * the lock may still be valid). */
static int64_t extend_once(watch *w, long long ttl_ms)
{
    rl_vote stack[8], *votes = w->n <= 8 ? stack : calloc(w->n, sizeof *votes);
    rl_lock_op op = {.kind = RL_OP_EXTEND,
                     .key = w->key,
                     .key_len = w->key_len,
                     .token = w->token,
                     .token_len = w->token_len,
                     .ttl_ms = ttl_ms,
                     .mode = w->mode,
                     .min_replicas = w->min_replicas,
                     .replica_timeout_ms = w->replica_timeout_ms};
    rl_timeouts t = w->timeouts;
    rl_count count;
    int64_t start = rl_now_us(), until;
    size_t i;

    if (votes == NULL) {
        return 0;
    }
    for (i = 0; i < w->n; i++) {
        memset(&votes[i], 0, sizeof votes[i]);
        votes[i].conn = conn_for(&w->eps[i]);
    }
    for (i = 0; i < w->n; i++) {
        if (votes[i].conn == NULL) { /* out of memory: no quorum this time */
            if (votes != stack) {
                free(votes);
            }
            return 0;
        }
    }
    /* an extend the replicas did not acknowledge in time (min_replicas)
     * fails its vote: the holder's validity stays the last acknowledged one */
    if (op.min_replicas > 0) {
        t.reply_us += op.replica_timeout_ms * 1000;
    }
    rl_fanout(&op, votes, w->n, w->quorum, 1, &t);
    for (i = 0; i < w->n; i++) {
        follow_redirect(w, i, &op, &votes[i], &t);
    }
    rl_count_votes(&count, votes, w->n);
    until = rl_valid_until(start, ttl_ms, w->drift_factor, w->drift);
    if (votes != stack) {
        free(votes);
    }
    if (rl_decide(&count, w->drift ? until : 0, rl_now_us()) == RL_WON) {
        return until;
    }
    return count.no > count.n - count.quorum ? 0 : -1;
}

static void unlink_watch(watch *w)
{
    watch **p;
    for (p = &watches; *p; p = &(*p)->next) {
        if (*p == w) {
            *p = w->next;
            return;
        }
    }
}

/* Under mu: w's owner is told it lost w (on_lost), why. */
static void tell_lost(watch *w, int why)
{
    if (w->on_lost) {
        w->why = why;
        w->on_lost(w->on_lost_arg);
    }
}

/* Is w's owner told when w's validity ends, not told yet? Every watch
 * with on_lost: a timer's, a capped one's, and an extended one's whose
 * extension did not come in time (a process stopped past it: told when it
 * runs again, before the extension's round trip). */
static int timed(const watch *w)
{
    return w->on_lost && !w->told && w->state != RL_WATCH_LOST;
}

static void wake_by(int64_t *wake_us, int64_t at)
{
    if (*wake_us == 0 || at < *wake_us) {
        *wake_us = at;
    }
}

/* The first watch due (active, not busy), or NULL; *wake_us: when the
 * next one is due (0: none). The timed ones whose validity ended are told
 * here. */
static watch *next_due(int64_t now, int64_t *wake_us)
{
    watch *w, *due = NULL;
    *wake_us = 0;
    for (w = watches; w; w = w->next) {
        if (w->busy) {
            continue;
        }
        if (w->state == RL_WATCH_ACTIVE && !w->timer_only && w->max_hold_us > 0
            && now - w->started_us >= w->max_hold_us) {
            w->state = RL_WATCH_CAPPED;
        }
        if (timed(w)) {
            if (w->valid_until_us <= now) {
                w->told = 1;
                tell_lost(w, RL_WATCH_WHY_EXPIRED);
            } else {
                wake_by(wake_us, w->valid_until_us);
            }
        }
        if (w->state != RL_WATCH_ACTIVE || w->timer_only) {
            continue;
        }
        if (w->next_us <= now) {
            due = due ? due : w;
        } else {
            wake_by(wake_us, w->next_us);
        }
    }
    return due;
}

static void wait_until(int64_t wake_us)
{
    struct timespec ts;
    if (wake_us == 0) {
        wake_at = INT64_MAX;
        pthread_cond_wait(&cv, &mu);
    } else {
        wake_at = wake_us;
        ts.tv_sec = (time_t)(wake_us / 1000000);
        ts.tv_nsec = (long)(wake_us % 1000000) * 1000;
        pthread_cond_timedwait(&cv, &mu, &ts); /* cv runs on the monotonic clock, as rl_now_us() */
    }
    wake_at = 0;
}

/* How soon a failed extension is tried again: a tenth of the TTL, at least 10 ms. */
static int64_t retry_us(const watch *w)
{
    int64_t us = w->ttl_ms * 100;
    return us > 10000 ? us : 10000;
}

static void *thread_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&mu);
    while (!stopping) {
        int64_t wake, until;
        long long ttl;
        watch *w = next_due(rl_now_us(), &wake);
        if (w == NULL) {
            wait_until(wake);
            continue;
        }
        w->busy = 1;
        ttl = w->ttl_ms; /* extend() may change it meanwhile */
        pthread_mutex_unlock(&mu);
        until = extend_once(w, ttl);
        pthread_mutex_lock(&mu);
        w->busy = 0;
        if (w->removed) {
            free_watch(w);
            continue;
        }
        if (until > 0) {
            extended++;
            rl_metrics_count(RL_M_EXTENDED, 1);
            w->valid_until_us = until;
            w->next_us = rl_now_us() + w->ttl_ms * 1000 / 3;
            w->told = 0;
            w->why = 0; /* extended: still ours (a lapse of its validity not taken yet is no loss) */
        } else if (until < 0 && rl_now_us() + retry_us(w) < w->valid_until_us) {
            w->next_us = rl_now_us() + retry_us(w); /* not answered: again, while it may still be ours */
        } else {
            lost++;
            w->state = RL_WATCH_LOST;
            if (!w->told) { /* once: its validity's end may have been told */
                w->told = 1;
                tell_lost(w, until < 0 ? RL_WATCH_WHY_EXPIRED : w->drift ? RL_WATCH_WHY_QUORUM : RL_WATCH_WHY_LOST);
            }
        }
    }
    pthread_mutex_unlock(&mu);
    return NULL;
}

/* Under mu: makes sure the thread runs in this process. */
static int start_thread(void)
{
    static int atfork_registered;
    pthread_condattr_t attr;
    sigset_t all, old;
    int rc;

    if (running) {
        return 0;
    }
    if (!atfork_registered) {
        pthread_atfork(before_fork, after_fork_parent, after_fork_child);
        atfork_registered = 1;
    }
    if (!cv_ready) {
        pthread_condattr_init(&attr);
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
        pthread_cond_init(&cv, &attr);
        pthread_condattr_destroy(&attr);
        cv_ready = 1;
    }
    (void)rl_pid(); /* cached by this thread before the other reads it */
    /* every signal blocked in the thread: PHP's timeouts and pcntl handlers
     * stay with the request's thread */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    rc = pthread_create(&thread, NULL, thread_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        return -1;
    }
    running = 1;
    running_pid = rl_pid();
    stopping = 0;
    wake_at = INT64_MAX; /* until it runs: the first add after this one need not wait for it */
    return 0;
}

uint64_t rl_watch_add(const rl_watch_spec *s)
{
    watch *w = calloc(1, sizeof *w);
    uint64_t id = 0;
    size_t i;

    if (w == NULL) {
        return 0;
    }
    w->eps = calloc(s->n, sizeof *w->eps);
    w->key = malloc(s->key_len + 1);
    w->token = malloc(s->token_len + 1);
    w->n = s->n;
    if ((w->eps == NULL && s->n > 0) || w->key == NULL || w->token == NULL) {
        free_watch(w);
        return 0;
    }
    for (i = 0; i < s->n; i++) {
        if (rl_endpoint_copy(&w->eps[i], s->eps[i]) != 0) {
            free_watch(w);
            return 0;
        }
    }
    memcpy(w->key, s->key, s->key_len);
    w->key[s->key_len] = '\0';
    w->key_len = s->key_len;
    memcpy(w->token, s->token, s->token_len);
    w->token[s->token_len] = '\0';
    w->token_len = s->token_len;
    w->quorum = s->quorum;
    w->ttl_ms = s->ttl_ms;
    w->mode = s->mode;
    w->drift_factor = s->drift_factor;
    w->drift = s->drift;
    w->timeouts = s->timeouts;
    w->min_replicas = s->min_replicas;
    w->replica_timeout_ms = s->replica_timeout_ms;
    w->started_us = rl_now_us();
    w->max_hold_us = s->max_hold_us;
    w->valid_until_us = s->valid_until_us;
    w->timer_only = s->timer_only;
    w->next_us = w->timer_only ? w->valid_until_us : w->started_us + s->ttl_ms * 1000 / 3;
    w->owner = s->owner;
    w->state = RL_WATCH_ACTIVE;
    w->on_lost = s->on_lost;
    w->on_lost_arg = s->on_lost_arg;

    pthread_mutex_lock(&mu);
    if (start_thread() == 0) {
        id = w->id = next_id++;
        w->next = watches;
        watches = w;
        if (w->next_us < wake_at) {
            pthread_cond_signal(&cv); /* due before the thread would look again */
        }
    }
    pthread_mutex_unlock(&mu);
    if (id == 0) {
        free_watch(w);
    }
    return id;
}

/* Under mu. */
static void remove_watch(watch *w)
{
    unlink_watch(w);
    if (w->busy) {
        w->removed = 1; /* the thread frees it when its extension returns */
    } else {
        free_watch(w);
    }
}

void rl_watch_remove(uint64_t id)
{
    watch *w;
    pthread_mutex_lock(&mu);
    for (w = watches; w; w = w->next) {
        if (w->id == id) {
            remove_watch(w);
            break;
        }
    }
    pthread_mutex_unlock(&mu);
}

void rl_watch_renewed(uint64_t id, long long ttl_ms, int64_t valid_until_us)
{
    watch *w;
    pthread_mutex_lock(&mu);
    for (w = watches; w; w = w->next) {
        if (w->id == id) {
            w->ttl_ms = ttl_ms; /* read by the thread under the mutex only, see thread_main() */
            w->valid_until_us = valid_until_us;
            w->next_us = w->timer_only ? valid_until_us : rl_now_us() + ttl_ms * 1000 / 3;
            if (w->state == RL_WATCH_LOST) {
                w->state = RL_WATCH_ACTIVE;
            }
            w->told = 0;
            w->why = 0; /* held again: a loss not yet taken is no more */
            if (w->next_us < wake_at) {
                pthread_cond_signal(&cv); /* a timer now due before the thread would look again */
            }
            break;
        }
    }
    pthread_mutex_unlock(&mu);
}

void rl_watch_clear(const void *owner)
{
    watch *w, *next;
    pthread_mutex_lock(&mu);
    for (w = watches; w; w = next) {
        next = w->next;
        if (w->owner == owner) {
            remove_watch(w);
        }
    }
    pthread_mutex_unlock(&mu);
}

int rl_watch_state(uint64_t id, int64_t *valid_until_us)
{
    watch *w;
    int state = RL_WATCH_GONE;
    pthread_mutex_lock(&mu);
    for (w = watches; w; w = w->next) {
        if (w->id == id) {
            state = w->state;
            *valid_until_us = w->valid_until_us;
            break;
        }
    }
    pthread_mutex_unlock(&mu);
    return state;
}

size_t rl_watch_take_lost(const void *owner, uint64_t *ids, int *whys, size_t max)
{
    watch *w;
    size_t n = 0;
    pthread_mutex_lock(&mu);
    for (w = watches; w && n < max; w = w->next) {
        if (w->owner == owner && w->why != 0) {
            ids[n] = w->id;
            whys[n++] = w->why;
            w->why = 0;
        }
    }
    pthread_mutex_unlock(&mu);
    return n;
}

void rl_watch_counts(uint64_t *ext, uint64_t *lst)
{
    pthread_mutex_lock(&mu);
    *ext = extended;
    *lst = lost;
    pthread_mutex_unlock(&mu);
}

void rl_watch_shutdown(void)
{
    wconn *c;
    pthread_mutex_lock(&mu);
    if (running && running_pid == rl_pid()) {
        stopping = 1;
        pthread_cond_signal(&cv);
        pthread_mutex_unlock(&mu);
        pthread_join(thread, NULL);
        pthread_mutex_lock(&mu);
        running = 0;
    }
    while (watches) {
        remove_watch(watches);
    }
    while ((c = conns) != NULL) {
        conns = c->next;
        rl_conn_free(c->conn);
        free(c);
    }
    pthread_mutex_unlock(&mu);
    if (cv_ready) {
        pthread_cond_destroy(&cv);
        cv_ready = 0;
    }
}

#else /* built without POSIX threads: nothing is watched */

uint64_t rl_watch_add(const rl_watch_spec *spec)
{
    (void)spec;
    return 0;
}

void rl_watch_remove(uint64_t id)
{
    (void)id;
}

void rl_watch_renewed(uint64_t id, long long ttl_ms, int64_t valid_until_us)
{
    (void)id;
    (void)ttl_ms;
    (void)valid_until_us;
}

void rl_watch_clear(const void *owner)
{
    (void)owner;
}

int rl_watch_state(uint64_t id, int64_t *valid_until_us)
{
    (void)id;
    (void)valid_until_us;
    return RL_WATCH_GONE;
}

size_t rl_watch_take_lost(const void *owner, uint64_t *ids, int *whys, size_t max)
{
    (void)owner;
    (void)ids;
    (void)whys;
    (void)max;
    return 0;
}

void rl_watch_counts(uint64_t *extended, uint64_t *lost)
{
    *extended = *lost = 0;
}

void rl_watch_shutdown(void)
{
}

#endif
