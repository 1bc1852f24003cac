#include "rl_engine.h"
#include "../base/rl_clock.h"
#include "../base/rl_status.h"
#include "../transport/rl_handshake.h"
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>

/* PH_TLS: the TLS handshake of a new connection, between connect and login,
 * under the connect deadline. */
/* PH_BENCHED: a node that timed out a moment ago, held in reserve: asked
 * only if the call cannot reach its quorum without it. */
enum {
    PH_CONNECTING = 1,
    PH_TLS,
    PH_HANDSHAKE,
    PH_WAIT,
    PH_BENCHED,
    PH_DONE
};

static void finish(rl_vote *v, int status, int yes)
{
    if (status == RL_OK) {
        rl_conn_set_down_until(v->conn, 0); /* it answered: benched no more */
    }
    v->err.code = status;
    v->yes = (status == RL_OK) && yes;
    v->phase = PH_DONE;
}

static void fail(rl_vote *v, int status, const char *msg)
{
    rl_error_set(&v->err, status, "%s", msg);
    finish(v, status, 0);
}

static void send_op(rl_vote *v, const rl_op *op, int64_t now);
static void logged_in(rl_vote *v, const rl_op *op, int64_t now);

/* Connection gone while it owed us a reply. A reused connection may have
 * died of old age just as we sent: try once more on a new one, in a form
 * that is safe to repeat. A new connection dying is the node's fault. */
static void lost(rl_vote *v, const rl_op *op, int status, const char *msg, const rl_timeouts *t, int64_t now);

static void on_connected(rl_vote *v, const rl_op *op, int64_t now);

/* Opens a new connection; a unix socket may connect at once. */
static void start_connect(rl_vote *v, const rl_op *op, const rl_timeouts *t, int64_t now)
{
    int rc = rl_conn_start_connect(v->conn, &v->err);
    if (rc != 0) {
        finish(v, rc, 0);
        return;
    }
    v->reused = 0;
    v->phase = PH_CONNECTING;
    v->connect_deadline_us = now + t->connect_us;
    if (!v->conn->connecting) {
        on_connected(v, op, now);
    }
}

static void tls_step(rl_vote *v, const rl_op *op, int64_t now)
{
    int rc = rl_conn_tls_step(v->conn, &v->err);
    if (rc == 1) {
        return; /* waits for v->conn->tls_want */
    }
    if (rc != 0) {
        rl_conn_close(v->conn); /* never reused: a session that failed */
        finish(v, rc, 0);
        return;
    }
    on_connected(v, op, now);
}

/* Connected: TLS first (ep.tls), then log in if this socket has not, else
 * send the command. */
static void on_connected(rl_vote *v, const rl_op *op, int64_t now)
{
    rl_conn *c = v->conn;
    int n;

    if (c->ep.tls && !c->tls_ready) {
        if (c->ssl == NULL) {
            int rc = rl_conn_tls_start(c, &v->err);
            if (rc != 0) {
                rl_conn_close(c);
                finish(v, rc, 0);
                return;
            }
            v->phase = PH_TLS;
        }
        tls_step(v, op, now);
        return;
    }
    if (c->authed) {
        send_op(v, op, now);
        return;
    }
    n = rl_handshake_append(c, now);
    if (n < 0) {
        fail(v, RL_E_NOMEM, "out of memory");
        return;
    }
    if (n == 0) {
        logged_in(v, op, now);
        return;
    }
    v->phase = PH_HANDSHAKE;
    v->handshake_left = n;
    v->handshake_judged = 0;
}

static void send_op(rl_vote *v, const rl_op *op, int64_t now)
{
    /* a trailing reply (replica acknowledgement) rides in the same write:
     * no extra round trip */
    int trail = op->family->append(v->conn, op, (rl_send_form)v->form, now);
    if (trail < 0) {
        fail(v, RL_E_NOMEM, "out of memory");
        return;
    }
    v->trail_owed = trail;
    v->trail_next = 0;
    v->sent = 1;
    v->phase = PH_WAIT;
}

/* A fresh connection, logged in: it names itself (CLIENT SETINFO, replies
 * not waited for) in the write that carries the op. */
static void logged_in(rl_vote *v, const rl_op *op, int64_t now)
{
    int n = rl_identify_append(v->conn, now);
    if (n < 0) {
        fail(v, RL_E_NOMEM, "out of memory");
        return;
    }
    rl_conn_owe_discards(v->conn, n);
    rl_conn_set_authed(v->conn, 1);
    send_op(v, op, now);
}

static void lost(rl_vote *v, const rl_op *op, int status, const char *msg, const rl_timeouts *t, int64_t now)
{
    rl_conn_close(v->conn);
    if (v->reused && !v->retried && v->phase == PH_WAIT) {
        v->retried = 1;
        v->form = (v->form == RL_FORM_EVAL) ? RL_FORM_RETRY_EVAL : RL_FORM_RETRY;
        start_connect(v, op, t, now);
        return;
    }
    fail(v, status, msg);
}

static void on_handshake_reply(rl_vote *v, const rl_op *op, const redisReply *r, int64_t now)
{
    int rc = rl_handshake_judge(v->conn, v->handshake_judged++, r, v->err.msg, sizeof v->err.msg);
    if (rc != 0) {
        /* The socket's login state is unknown now: never reuse it. */
        rl_conn_close(v->conn);
        finish(v, rc, 0);
        return;
    }
    if (--v->handshake_left == 0) {
        logged_in(v, op, now);
    }
}

/* A trailing reply (a WAIT's, a native release's EXISTS): a yes counts only when the family says so;
 * a node that said yes without it fails its vote (the caller takes back
 * what it did there). */
static void on_trail_reply(rl_vote *v, const rl_op *op, const redisReply *r)
{
    int verdict;
    v->trail_owed = v->trail_next = 0;
    if (!v->cmd_yes) {
        finish(v, RL_OK, 0);
        return;
    }
    verdict = op->family->judge_trail(op, r, &v->result, v->err.msg, sizeof v->err.msg);
    v->value = v->result.value;
    if (verdict == RL_REPLY_YES) {
        finish(v, RL_OK, 1);
    } else {
        finish(v, verdict == RL_REPLY_NO ? RL_E_REPLICAS : RL_E_REPLY, 0);
    }
}

static void on_op_reply(rl_vote *v, const rl_op *op, const redisReply *r, int64_t now)
{
    int verdict;

    if (v->trail_next) {
        on_trail_reply(v, op, r);
        return;
    }
    verdict = op->family->judge(op, v->conn, r, &v->result, v->err.msg, sizeof v->err.msg);
    v->value = v->result.value;
    switch (verdict) {
    case RL_REPLY_YES:
    case RL_REPLY_NO:
        if (v->trail_owed) {
            v->trail_next = 1;
            v->cmd_yes = verdict == RL_REPLY_YES;
            return;
        }
        finish(v, RL_OK, verdict == RL_REPLY_YES);
        return;
    case RL_REPLY_NOSCRIPT:
        if (v->trail_owed) {
            /* what was sent behind it answers for nothing now */
            rl_conn_owe_discards(v->conn, (size_t)v->trail_owed);
            v->trail_owed = 0;
        }
        if (v->form == RL_FORM_FIRST || v->form == RL_FORM_RETRY) {
            v->form = (v->form == RL_FORM_FIRST) ? RL_FORM_EVAL : RL_FORM_RETRY_EVAL;
            send_op(v, op, now);
            return;
        }
        finish(v, RL_E_REPLY, 0);
        return;
    case RL_REPLY_NOAUTH:
        rl_conn_set_authed(v->conn, 0);
        rl_conn_close(v->conn);
        finish(v, RL_E_AUTH, 0);
        return;
    case RL_REPLY_INVALID: /* the node's error; the stream is in step */
        finish(v, RL_E_REPLY, 0);
        return;
    case RL_REPLY_NOMEM:
        finish(v, RL_E_NOMEM, 0);
        return;
    default:
        if (r->type != REDIS_REPLY_ERROR) {
            /* a reply of a type this command never gets: the stream is out
             * of step with our commands (or not Redis): never reuse it */
            rl_conn_close(v->conn);
        }
        finish(v, RL_E_REPLY, 0);
    }
}

/* Reads what the node sent and acts on each complete reply. */
static void on_readable(rl_vote *v, const rl_op *op, const rl_timeouts *t, int64_t now)
{
    rl_conn *c = v->conn;
    rl_error e;
    int rc = rl_conn_fill(c, &e), status = 0;
    redisReply *r;

    if (rc == RL_E_PROTOCOL) {
        /* Refused before it was buffered (too big, malformed, or not asked
         * for): nothing on this socket is trusted, replies before it
         * included. The node's fault, so no retry. */
        rl_conn_close(c);
        fail(v, RL_E_PROTOCOL, e.msg);
        return;
    }
    while (v->phase == PH_HANDSHAKE || v->phase == PH_WAIT) {
        r = rl_conn_next_reply(c, &status);
        if (r == NULL) {
            break;
        }
        if (c->discard > 0) { /* owed to an earlier call that stopped listening */
            rl_conn_discard_one(c, r);
            if (v->phase == PH_WAIT && op->family->on_stale_reply && op->family->on_stale_reply(op, c, r, &v->result)) {
                finish(v, RL_OK, 1);
                v->value = v->result.value;
            }
        } else if (v->phase == PH_HANDSHAKE) {
            on_handshake_reply(v, op, r, now);
        } else {
            on_op_reply(v, op, r, now);
        }
        freeReplyObject(r);
    }
    if (status != 0) {
        rl_conn_close(c);
        if (v->phase != PH_DONE) {
            fail(v, RL_E_PROTOCOL, "malformed reply");
        }
        return;
    }
    if (rc != 0 && v->phase != PH_DONE) {
        lost(v, op, rc, e.msg, t, now);
    }
}

static int64_t deadline_of(const rl_vote *v, const rl_timeouts *t)
{
    if (v->phase == PH_CONNECTING || v->phase == PH_TLS) {
        return v->connect_deadline_us;
    }
    return v->conn->owed_since_us + t->reply_us;
}

/* After a timeout a node is not asked again for this long: a stalled node
 * costs its timeout once, not on every call (the family may say less: a
 * blocking read's reply time holds its block). */
static int64_t down_window(const rl_vote *v, const rl_op *op, int sent, const rl_timeouts *t)
{
    int64_t usual = t->reply_us > 1000000 ? t->reply_us : 1000000;
    return op->family->on_timeout ? op->family->on_timeout(op, v->conn, sent, usual) : usual;
}

static void on_deadline(rl_vote *v, const rl_op *op, const rl_timeouts *t, int64_t now)
{
    int64_t down;
    if (v->phase == PH_CONNECTING) {
        snprintf(v->err.msg, sizeof v->err.msg, "connect timed out after %lld ms", (long long)(t->connect_us / 1000));
    } else if (v->phase == PH_TLS) {
        snprintf(v->err.msg, sizeof v->err.msg, "TLS handshake timed out after %lld ms (not a TLS port?)",
                 (long long)(t->connect_us / 1000));
    } else {
        snprintf(v->err.msg, sizeof v->err.msg, "timed out: no reply within %lld ms", (long long)(t->reply_us / 1000));
        v->conn->stats.dropped++; /* it holds an unread reply: never reuse it */
    }
    /* the family takes back what the node may still do when it wakes up */
    down = down_window(v, op, v->sent && v->phase != PH_CONNECTING && v->phase != PH_TLS, t);
    rl_conn_close(v->conn);
    rl_conn_set_down_until(v->conn, now + down);
    finish(v, RL_E_TIMEOUT, 0);
}

/* Writes pending output; moves a completed connect on. */
static void on_writable(rl_vote *v, const rl_op *op, const rl_timeouts *t, int64_t now)
{
    rl_error e;
    int rc;

    if (v->phase == PH_CONNECTING) {
        rc = rl_conn_finish_connect(v->conn, &v->err);
        if (rc != 0) {
            finish(v, rc, 0);
            return;
        }
        if (v->conn->connecting) {
            return; /* trying the host's next address */
        }
        on_connected(v, op, now);
        if (v->phase == PH_DONE) {
            return;
        }
    }
    rc = rl_conn_flush(v->conn, &e);
    if (rc != 0) {
        lost(v, op, rc, e.msg, t, now);
    }
}

static void ask(rl_vote *v, const rl_op *op, const rl_timeouts *t, int64_t now)
{
    v->reused = rl_conn_check(v->conn, now);
    if (v->reused) {
        send_op(v, op, now);
    } else {
        start_connect(v, op, t, now);
    }
    if (v->phase == PH_HANDSHAKE || v->phase == PH_WAIT) {
        on_writable(v, op, t, now);
    }
}

static void begin(rl_vote *v, const rl_op *op, const rl_timeouts *t, int64_t now)
{
    /* all but the connection, and of the result only what says it is empty */
    memset(&v->err, 0, offsetof(rl_vote, result) - offsetof(rl_vote, err));
    v->result.value = 0;
    v->result.text[0] = '\0';
    v->form = op->repeat ? RL_FORM_RETRY : RL_FORM_FIRST;
    if (v->conn->down_until_us > now) {
        v->phase = PH_BENCHED;
        return;
    }
    ask(v, op, t, now);
}

/* A benched node is asked when the nodes in play can no longer make the
 * quorum and the bench can: as few of them as it takes, in order. */
static void call_up(rl_vote *votes, size_t n, size_t short_by, const rl_op *op, const rl_timeouts *t, int64_t now)
{
    size_t i;
    for (i = 0; i < n && short_by > 0; i++) {
        if (votes[i].phase == PH_BENCHED) {
            votes[i].phase = 0;
            ask(&votes[i], op, t, now);
            short_by--;
        }
    }
}

static void leave_benched(rl_vote *v, int64_t now)
{
    snprintf(v->err.msg, sizeof v->err.msg, "timed out a moment ago; not asked again for %lld ms",
             (long long)((v->conn->down_until_us - now + 999) / 1000));
    finish(v, RL_E_TIMEOUT, 0);
}

/* Leaves a node the decision did not wait for: what it owes is read and
 * dropped before its next command. */
static void abandon(rl_vote *v, int64_t now)
{
    rl_conn *c = v->conn;
    if (v->phase == PH_BENCHED) {
        leave_benched(v, now);
        return;
    }
    if (v->phase == PH_CONNECTING || v->phase == PH_TLS || c->out_len > 0) {
        rl_conn_close(c);
    }
    snprintf(v->err.msg, sizeof v->err.msg, "decided without waiting for this node");
    finish(v, RL_E_SKIPPED, 0);
}

size_t rl_engine_run(const rl_op *op, rl_vote *votes, size_t n, size_t need, int early, const rl_timeouts *t)
{
    struct pollfd stack_fds[16], *fds = n <= 16 ? stack_fds : calloc(n, sizeof *fds);
    size_t i, yes, open;
    int64_t now = rl_now_us();

    if (fds == NULL) {
        for (i = 0; i < n; i++) {
            fail(&votes[i], RL_E_NOMEM, "out of memory");
        }
        return 0;
    }
    for (i = 0; i < n; i++) {
        begin(&votes[i], op, t, now);
    }
    for (;;) {
        int64_t next = INT64_MAX;
        int timeout_ms;

        size_t must = 0, benched = 0;
        yes = open = 0;
        for (i = 0; i < n; i++) {
            int p = votes[i].phase;
            yes += p == PH_DONE && votes[i].yes;
            open += p != PH_DONE && p != PH_BENCHED;
            benched += p == PH_BENCHED;
            must += p != PH_DONE && p != PH_BENCHED && votes[i].conn->must_answer;
        }
        if (benched > 0 && yes + open < need && yes + open + benched >= need) {
            call_up(votes, n, need - yes - open, op, t, now);
            continue; /* counted again: a node asked may have answered at once */
        }
        if (open == 0 || (early && must == 0 && (yes >= need || yes + open < need))
            || (t->stop_at_us && now >= t->stop_at_us)) {
            break;
        }
        for (i = 0; i < n; i++) {
            rl_vote *v = &votes[i];
            fds[i].fd = -1;
            fds[i].events = fds[i].revents = 0;
            if (v->phase == PH_DONE || v->phase == PH_BENCHED) {
                continue;
            }
            fds[i].fd = v->conn->fd;
            fds[i].events = v->phase == PH_CONNECTING ? POLLOUT
                            : v->phase == PH_TLS      ? v->conn->tls_want
                                                      : rl_conn_events(v->conn);
            if (deadline_of(v, t) < next) {
                next = deadline_of(v, t);
            }
            if (v->phase != PH_TLS && rl_conn_buffered(v->conn)) {
                next = now; /* decrypted bytes wait inside SSL, where poll() cannot see them */
            }
        }
        if (t->stop_at_us && t->stop_at_us < next) {
            next = t->stop_at_us;
        }
        timeout_ms = next <= now ? 0 : (int)((next - now + 999) / 1000);
        if (poll(fds, (nfds_t)n, timeout_ms) < 0 && errno != EINTR) {
            for (i = 0; i < n; i++) {
                if (votes[i].phase != PH_DONE) {
                    rl_conn_close(votes[i].conn);
                    fail(&votes[i], RL_E_IO, "poll failed");
                }
            }
            break;
        }
        now = rl_now_us();
        for (i = 0; i < n; i++) {
            rl_vote *v = &votes[i];
            if (v->phase == PH_DONE || v->phase == PH_BENCHED) {
                continue;
            }
            if (v->phase == PH_TLS) {
                if (fds[i].revents != 0) {
                    tls_step(v, op, now);
                }
                if (v->phase == PH_DONE) {
                    continue;
                }
                if (v->phase == PH_TLS) {
                    if (deadline_of(v, t) <= now) {
                        on_deadline(v, op, t, now);
                    }
                    continue;
                }
                fds[i].revents = POLLOUT; /* logged in or command queued: write it now */
            }
            if (rl_conn_buffered(v->conn)) {
                fds[i].revents |= POLLIN;
            }
            /* TLS may need the other direction: an SSL_write that waits for
             * a read goes on when the socket is readable, an SSL_read that
             * waits for a write when it is writable */
            if (v->conn->tls_write_wants_read && (fds[i].revents & POLLIN)) {
                fds[i].revents |= POLLOUT;
            }
            if (v->conn->tls_read_wants_write && (fds[i].revents & POLLOUT)) {
                fds[i].revents |= POLLIN;
            }
            if (fds[i].revents & (POLLOUT | POLLERR | POLLHUP) && (v->phase == PH_CONNECTING || v->conn->out_len > 0)) {
                on_writable(v, op, t, now);
            }
            if (v->phase != PH_DONE && v->phase != PH_CONNECTING && (fds[i].revents & (POLLIN | POLLERR | POLLHUP))) {
                on_readable(v, op, t, now);
            }
            if (v->phase != PH_DONE && deadline_of(v, t) <= now) {
                on_deadline(v, op, t, now);
            }
        }
    }
    for (i = 0; i < n; i++) {
        if (votes[i].phase != PH_DONE) {
            abandon(&votes[i], now);
        }
        /* whatever is still owed, nobody waits for now */
        rl_conn_abandon_owed(votes[i].conn);
    }
    if (op->family->after_run) {
        op->family->after_run(op, votes, n);
    }
    if (fds != stack_fds) {
        free(fds);
    }
    return yes;
}

void rl_vote_failed(rl_vote *vote, rl_conn *c, const rl_error *err)
{
    memset(vote, 0, sizeof *vote);
    vote->conn = c;
    vote->err = *err;
}

void rl_vote_set_error(rl_vote *vote, const rl_error *err)
{
    vote->err = *err;
    vote->yes = 0;
}

int rl_op_judge_alone(const rl_op *op, const void *reply, rl_result *out, char *err, size_t errlen)
{
    return op->family->judge(op, NULL, reply, out, err, errlen);
}
