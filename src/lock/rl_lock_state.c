#include "rl_lock_state.h"
#include <stdlib.h>
#include <string.h>

typedef struct rl_lock_state {
    char *undo[RL_CONN_MAX_UNDO]; /* key then token (undo_key_len bytes of key) */
    size_t undo_len[RL_CONN_MAX_UNDO], undo_key_len[RL_CONN_MAX_UNDO];
    int undos;
    char wake_from[RL_WAKE_ID_MAX]; /* the last wake stream entry seen... */
    char wake_for[RL_WAKE_ID_MAX];  /* ...by this waiter id */
    char *result;                   /* a done wake's result (malloc'd)... */
    size_t result_len;
    char result_for[RL_WAKE_ID_MAX]; /* ...for this waiter id */
} rl_lock_state;

static void undos_clear(rl_lock_state *s)
{
    int i;
    for (i = 0; i < s->undos; i++) {
        free(s->undo[i]);
    }
    s->undos = 0;
}

static void result_clear(rl_lock_state *s)
{
    free(s->result);
    s->result = NULL;
    s->result_len = 0;
    s->result_for[0] = '\0';
}

static void state_free(void *p)
{
    if (p != NULL) {
        undos_clear(p);
        result_clear(p);
        free(p);
    }
}

/* c's record, or NULL: ours is the one attached with our destructor. */
static rl_lock_state *found(const rl_conn *c)
{
    return c->attached_free == state_free ? c->attached : NULL;
}

/* c's record, made when missing; NULL when out of memory. */
static rl_lock_state *made(rl_conn *c)
{
    rl_lock_state *s = found(c);
    if (s == NULL && (s = calloc(1, sizeof *s)) != NULL) {
        rl_conn_attach(c, s, state_free);
    }
    return s;
}

void rl_undo_defer(rl_conn *c, const char *key, size_t key_len, const char *token, size_t token_len)
{
    rl_lock_state *s = made(c);
    char *buf;
    if (s == NULL || s->undos == RL_CONN_MAX_UNDO || (buf = malloc(key_len + token_len)) == NULL) {
        return; /* the lock's TTL still bounds it */
    }
    memcpy(buf, key, key_len);
    memcpy(buf + key_len, token, token_len);
    s->undo[s->undos] = buf;
    s->undo_key_len[s->undos] = key_len;
    s->undo_len[s->undos] = key_len + token_len;
    s->undos++;
}

int rl_undos_pending(const rl_conn *c)
{
    const rl_lock_state *s = found(c);
    return s != NULL ? s->undos : 0;
}

int rl_undos_drain(rl_conn *c, rl_undo_writer write, void *ctx)
{
    rl_lock_state *s = found(c);
    int i, n = 0;
    if (s == NULL) {
        return 0;
    }
    for (i = 0; i < s->undos; i++) {
        size_t key_len = s->undo_key_len[i];
        if (write(ctx, c, s->undo[i], key_len, s->undo[i] + key_len, s->undo_len[i] - key_len) == 0) {
            n++;
        }
    }
    undos_clear(s);
    return n;
}

const char *rl_wake_cursor(const rl_conn *c, const char *waiter, size_t len)
{
    const rl_lock_state *s = found(c);
    if (s != NULL && s->wake_from[0] != '\0' && len < sizeof s->wake_for && strlen(s->wake_for) == len
        && memcmp(s->wake_for, waiter, len) == 0) {
        return s->wake_from;
    }
    return NULL;
}

void rl_wake_cursor_set(rl_conn *c, const char *waiter, size_t len, const char *id)
{
    rl_lock_state *s = made(c);
    if (s == NULL) {
        return; /* out of memory: the next read starts from the start */
    }
    if (len >= sizeof s->wake_for || strlen(id) >= sizeof s->wake_from || memchr(waiter, '\0', len)) {
        s->wake_from[0] = s->wake_for[0] = '\0'; /* cannot be kept: read from the start next time */
        return;
    }
    memcpy(s->wake_for, waiter, len);
    s->wake_for[len] = '\0';
    strcpy(s->wake_from, id);
}

void rl_wake_result_set(rl_conn *c, const char *waiter, size_t waiter_len, const char *value, size_t len)
{
    rl_lock_state *s = made(c);
    if (s == NULL) {
        return; /* the waiter reads what it needs itself */
    }
    result_clear(s);
    if (waiter_len >= sizeof s->result_for || memchr(waiter, '\0', waiter_len)
        || (s->result = malloc(len > 0 ? len : 1)) == NULL) {
        return;
    }
    memcpy(s->result, value, len);
    s->result_len = len;
    memcpy(s->result_for, waiter, waiter_len);
    s->result_for[waiter_len] = '\0';
}

int rl_wake_result_take(rl_conn *c, const char *waiter, size_t waiter_len, char **value, size_t *len)
{
    rl_lock_state *s = found(c);
    int mine;
    if (s == NULL || s->result == NULL) {
        return 0;
    }
    mine = strlen(s->result_for) == waiter_len && memcmp(s->result_for, waiter, waiter_len) == 0;
    if (mine) {
        *value = s->result;
        *len = s->result_len;
        s->result = NULL;
    }
    result_clear(s);
    return mine;
}
