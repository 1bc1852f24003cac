#include "rl_conn.h"
#include "rl_tls.h"
#include "../base/rl_status.h"
#include "../base/rl_clock.h"
#include "../base/rl_pid.h"
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <hiredis/hiredis.h>

const char *rl_conn_role_name(rl_conn_role role)
{
    return role == RL_ROLE_WAIT ? "wait" : "command";
}

static void no_probes_owed(rl_conn *c)
{
    int i;
    for (i = 0; i < RL_PROBE_COUNT; i++) {
        c->probe_in[i] = -1;
    }
}

rl_conn *rl_conn_new(const rl_endpoint *ep, rl_conn_role role)
{
    rl_conn *c = calloc(1, sizeof *c);
    if (c == NULL) {
        return NULL;
    }
    if (rl_endpoint_copy(&c->ep, ep) != 0) {
        free(c);
        return NULL;
    }
    rl_endpoint_describe(&c->ep, c->name, sizeof c->name);
    rl_reply_limits_default(&c->limits);
    rl_reply_guard_init(&c->guard, &c->limits);
    c->fd = -1;
    c->role = role;
    no_probes_owed(c);
    rl_caps_forget(&c->caps);
    return c;
}

void rl_conn_attach(rl_conn *c, void *data, void (*free_fn)(void *))
{
    if (c->attached != NULL && c->attached_free != NULL) {
        c->attached_free(c->attached);
    }
    c->attached = data;
    c->attached_free = free_fn;
}

static void forget_addrs(rl_conn *c)
{
    if (c->addrs) {
        freeaddrinfo(c->addrs);
    }
    c->addrs = c->next_addr = NULL;
}

void rl_conn_close(rl_conn *c)
{
    if (c->ssl) {
        /* close_notify only on our own healthy session: a forked child's
         * copy is the parent's session, and is freed without a word */
        rl_tls_free(c->ssl, c->fd >= 0 && c->pid == rl_pid() && c->tls_ready && !c->tls_failed && c->out_len == 0);
        c->ssl = NULL;
    }
    c->tls_ready = c->tls_failed = 0;
    c->tls_want = 0;
    c->tls_read_wants_write = c->tls_write_wants_read = 0;
    if (c->fd >= 0) {
        close(c->fd); /* no shutdown(): in a forked child it would cut the parent's connection */
    }
    c->fd = -1;
    c->connecting = 0;
    c->authed = 0;
    c->out_len = 0;
    c->owed = c->discard = 0;
    no_probes_owed(c);
    rl_caps_forget(&c->caps); /* the next socket may reach another server (a failover) */
    c->owed_since_us = 0;
    if (c->reader) {
        redisReaderFree(c->reader);
        c->reader = NULL;
    }
    rl_reply_guard_reset(&c->guard);
    forget_addrs(c);
}

void rl_conn_free(rl_conn *c)
{
    if (c == NULL) {
        return;
    }
    rl_conn_attach(c, NULL, NULL);
    rl_conn_close(c);
    free(c->out);
    rl_endpoint_clear(&c->ep);
    free(c);
}

/* A reply nobody waits for was read: a probe's is read into the
 * capabilities (rl_caps_from_probe()). */
static void discarded(rl_conn *c, const redisReply *r)
{
    int i;

    c->discard--;
    for (i = 0; i < RL_PROBE_COUNT; i++) {
        if (c->probe_in[i] > 0) {
            c->probe_in[i]--;
        } else if (c->probe_in[i] == 0) {
            rl_caps_from_probe(&c->caps, (rl_probe)i, r);
            c->probe_in[i] = -1;
        }
    }
}

/* Reads and drops owed replies that have already arrived. */
static void drain_discards(rl_conn *c)
{
    rl_error ignored;
    int status = 0;
    void *reply;

    if (rl_conn_fill(c, &ignored) != 0) {
        rl_conn_close(c);
        return;
    }
    while (c->discard > 0 && (reply = rl_conn_next_reply(c, &status)) != NULL) {
        discarded(c, reply);
        freeReplyObject(reply);
    }
    if (status != 0) {
        rl_conn_close(c);
    }
}

int rl_conn_check(rl_conn *c, int64_t now_us)
{
    struct pollfd pfd;
    char buf[4096], err[64];
    int i;

    if (c->fd < 0) {
        return 0;
    }
    if (c->pid != rl_pid()) {
        rl_conn_close(c); /* inherited across fork(): the parent's, not ours */
        return 0;
    }
    if (c->connecting) {
        rl_conn_close(c);
        return 0;
    }
    if (c->discard > 0) {
        drain_discards(c);
        return c->fd >= 0; /* replies still owed are read before ours, in order */
    }
    if (now_us - c->last_reply_us < RL_CONN_FRESH_US) {
        return 1;
    }
    pfd.fd = c->fd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    if (c->ssl && rl_conn_buffered(c)) {
        rl_conn_close(c); /* decrypted bytes nobody asked for */
        return 0;
    }
    for (i = 0; i < 16; i++) {
        long n;
        pfd.revents = 0;
        if (poll(&pfd, 1, 0) == 0) {
            return 1;
        }
        /* Nothing was asked, so anything readable is EOF (server restart,
         * CLIENT KILL, idle timeout), a reset, or bytes nobody expects;
         * except, on TLS, records that SSL reads itself: TLS 1.3 servers
         * send session tickets after the handshake. */
        if (c->ssl == NULL || (pfd.revents & (POLLERR | POLLNVAL))) {
            break;
        }
        n = rl_tls_read(c->ssl, buf, sizeof buf, err, sizeof err);
        if (n != RL_TLS_WANT_READ) {
            c->tls_failed = n < 0;
            break;
        }
    }
    rl_conn_close(c);
    return 0;
}

int rl_conn_settle(rl_conn *c)
{
    if (c->fd >= 0 && c->owed > 0) {
        if (c->pid == rl_pid()) {
            drain_discards(c);
        }
        if (c->fd >= 0 && c->owed > 0) {
            c->stats.dropped++;
            rl_conn_close(c);
            return 1;
        }
    }
    return 0;
}

static int set_socket_options(int fd, int tcp)
{
    int one = 1;
    int flags = fcntl(fd, F_GETFL, 0);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        return -1;
    }
    if (tcp) {
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    }
    return 0;
}

static int connect_unix(rl_conn *c, rl_error *err)
{
    struct sockaddr_un sa;
    size_t n = strlen(c->ep.unix_path);

    if (n >= sizeof sa.sun_path) {
        rl_error_set(err, RL_E_CONNECT, "unix socket path too long");
        return RL_E_CONNECT;
    }
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path, c->ep.unix_path, n + 1);
    c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (c->fd < 0 || set_socket_options(c->fd, 0) != 0) {
        rl_error_set(err, RL_E_CONNECT, "socket: %s", strerror(errno));
        rl_conn_close(c);
        return RL_E_CONNECT;
    }
    if (connect(c->fd, (struct sockaddr *)&sa, sizeof sa) != 0 && errno != EINPROGRESS) {
        rl_error_set(err, RL_E_CONNECT, "connect: %s", strerror(errno));
        rl_conn_close(c);
        return RL_E_CONNECT;
    }
    c->connecting = (errno == EINPROGRESS);
    return 0;
}

/* Tries the remaining resolved addresses until one connects or is in progress. */
static int connect_next_addr(rl_conn *c, rl_error *err)
{
    int saved = ECONNREFUSED;
    while (c->next_addr) {
        struct addrinfo *ai = c->next_addr;
        c->next_addr = ai->ai_next;
        c->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (c->fd < 0) {
            saved = errno;
            continue;
        }
        if (set_socket_options(c->fd, 1) == 0
            && (connect(c->fd, ai->ai_addr, ai->ai_addrlen) == 0 || errno == EINPROGRESS)) {
            c->connecting = (errno == EINPROGRESS);
            return 0;
        }
        saved = errno;
        close(c->fd);
        c->fd = -1;
    }
    rl_error_set(err, RL_E_CONNECT, "connect: %s", strerror(saved));
    rl_conn_close(c);
    return RL_E_CONNECT;
}

static int connect_tcp(rl_conn *c, rl_error *err)
{
    struct addrinfo hints, *res = NULL;
    char port[8];
    int rc;

    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(port, sizeof port, "%d", c->ep.port);
    rc = getaddrinfo(c->ep.host, port, &hints, &res);
    if (rc != 0) {
        rl_error_set(err, RL_E_CONNECT, "cannot resolve host: %s", gai_strerror(rc));
        return RL_E_CONNECT;
    }
    c->addrs = c->next_addr = res;
    return connect_next_addr(c, err);
}

static void connected(rl_conn *c)
{
    forget_addrs(c);
    if (c->stats.connects > 0) {
        c->stats.reconnects++;
    }
    c->stats.connects++;
}

int rl_conn_start_connect(rl_conn *c, rl_error *err)
{
    int rc;
    rl_conn_close(c);
    c->reader = redisReaderCreate();
    if (c->reader == NULL) {
        rl_error_set(err, RL_E_NOMEM, "out of memory");
        return RL_E_NOMEM;
    }
    rc = c->ep.unix_path ? connect_unix(c, err) : connect_tcp(c, err);
    if (rc == 0) {
        c->pid = rl_pid();
        if (!c->connecting) {
            connected(c);
        }
    }
    return rc;
}

int rl_conn_finish_connect(rl_conn *c, rl_error *err)
{
    int soerr = 0;
    socklen_t len = sizeof soerr;

    if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &soerr, &len) != 0) {
        soerr = errno;
    }
    if (soerr == 0) {
        c->connecting = 0;
        connected(c);
        return 0;
    }
    close(c->fd);
    c->fd = -1;
    if (c->next_addr) { /* e.g. "localhost" gave ::1 first and the server is on 127.0.0.1 only */
        return connect_next_addr(c, err);
    }
    rl_error_set(err, RL_E_CONNECT, "connect: %s", strerror(soerr));
    rl_conn_close(c);
    return RL_E_CONNECT;
}

int rl_conn_tls_start(rl_conn *c, rl_error *err)
{
    if (c->ep.tls_ctx == NULL) {
        rl_error_set(err, RL_E_TLS, "TLS: no TLS settings");
        return RL_E_TLS;
    }
    c->ssl = rl_tls_new(c->ep.tls_ctx, c->fd, c->ep.host, err->msg, sizeof err->msg);
    if (c->ssl == NULL) {
        return err->code = RL_E_TLS; /* the TLS layer wrote the message */
    }
    c->tls_ready = c->tls_failed = 0;
    return 0;
}

/* A TLS error or EOF (the TLS layer wrote the message): no close_notify. */
static int tls_failed(rl_conn *c, rl_error *err, int code)
{
    c->tls_failed = 1;
    err->code = code;
    return code;
}

int rl_conn_tls_step(rl_conn *c, rl_error *err)
{
    int rc = rl_tls_handshake(c->ssl, err->msg, sizeof err->msg);
    switch (rc) {
    case RL_TLS_DONE:
        c->tls_ready = 1;
        c->tls_want = 0;
        return 0;
    case RL_TLS_WANT_READ:
        c->tls_want = POLLIN;
        return 1;
    case RL_TLS_WANT_WRITE:
        c->tls_want = POLLOUT;
        return 1;
    default:
        return tls_failed(c, err, RL_E_TLS);
    }
}

short rl_conn_events(const rl_conn *c)
{
    short ev = POLLIN;
    if ((c->out_len > 0 && !c->tls_write_wants_read) || c->tls_read_wants_write) {
        ev |= POLLOUT;
    }
    return ev;
}

int rl_conn_buffered(const rl_conn *c)
{
    return c->ssl != NULL && rl_tls_pending(c->ssl);
}

int rl_conn_append(rl_conn *c, int argc, const char **argv, const size_t *argvlen, int64_t now_us)
{
    char *cmd = NULL;
    int len = redisFormatCommandArgv(&cmd, argc, argv, argvlen);

    if (len < 0 || cmd == NULL) {
        return RL_E_NOMEM;
    }
    if (c->out_len + (size_t)len > c->out_cap) {
        size_t cap = (c->out_len + (size_t)len) * 2;
        char *grown = realloc(c->out, cap);
        if (grown == NULL) {
            redisFreeCommand(cmd);
            return RL_E_NOMEM;
        }
        c->out = grown;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, cmd, (size_t)len);
    c->out_len += (size_t)len;
    redisFreeCommand(cmd);
    if (c->owed == 0) {
        c->owed_since_us = now_us;
    }
    c->owed++;
    rl_reply_guard_expect(&c->guard, 1);
    return 0;
}

int rl_conn_flush(rl_conn *c, rl_error *err)
{
    while (c->out_len > 0) {
        ssize_t n;
        if (c->ssl) {
            long w = rl_tls_write(c->ssl, c->out, c->out_len, err->msg, sizeof err->msg);
            c->tls_write_wants_read = w == RL_TLS_WANT_READ;
            if (w == RL_TLS_WANT_WRITE || w == RL_TLS_WANT_READ) {
                return 0;
            }
            if (w < 0) {
                return tls_failed(c, err, w == RL_TLS_CLOSED ? RL_E_IO : RL_E_TLS);
            }
            n = (ssize_t)w;
        } else {
            n = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL);
        }
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                return 0;
            }
            rl_error_set(err, RL_E_IO, "write: %s", strerror(errno));
            return RL_E_IO;
        }
        memmove(c->out, c->out + n, c->out_len - (size_t)n);
        c->out_len -= (size_t)n;
    }
    return 0;
}

int rl_conn_fill(rl_conn *c, rl_error *err)
{
    char buf[16384], why[RL_REPLY_WHY_LEN];
    size_t total = 0;

    while (total < RL_CONN_FILL_MAX) {
        ssize_t n;
        if (c->ssl) {
            /* one call gives at most one record: read until SSL wants the socket */
            long r = rl_tls_read(c->ssl, buf, sizeof buf, err->msg, sizeof err->msg);
            c->tls_read_wants_write = r == RL_TLS_WANT_WRITE;
            if (r == RL_TLS_WANT_READ || r == RL_TLS_WANT_WRITE) {
                return 0;
            }
            if (r < 0) {
                return tls_failed(c, err, r == RL_TLS_CLOSED ? RL_E_IO : RL_E_TLS);
            }
            n = (ssize_t)r;
        } else {
            n = recv(c->fd, buf, sizeof buf, 0);
        }
        if (n > 0) {
            /* checked before buffered: the reader believes what headers say */
            if (rl_reply_guard_scan(&c->guard, buf, (size_t)n, NULL, why, sizeof why) != 0) {
                rl_error_set(err, RL_E_PROTOCOL, "protocol error: %s", why);
                return RL_E_PROTOCOL;
            }
            if (redisReaderFeed(c->reader, buf, (size_t)n) != REDIS_OK) {
                rl_error_set(err, RL_E_PROTOCOL, "protocol error");
                return RL_E_PROTOCOL;
            }
            if ((size_t)n < sizeof buf && c->ssl == NULL) {
                return 0;
            }
            total += (size_t)n;
            continue;
        }
        if (n == 0) {
            rl_error_set(err, RL_E_IO, "connection closed by server");
            return RL_E_IO;
        }
        if (errno == EINTR) {
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            return 0;
        }
        rl_error_set(err, RL_E_IO, "read: %s", strerror(errno));
        return RL_E_IO;
    }
    return 0; /* more may be waiting: poll() says so, after the deadlines were looked at */
}

void *rl_conn_next_reply(rl_conn *c, int *status)
{
    void *reply = NULL;
    if (redisReaderGetReply(c->reader, &reply) != REDIS_OK) {
        *status = RL_E_PROTOCOL;
        return NULL;
    }
    if (reply != NULL) {
        /* A node that keeps answering is not stalled: the clock of what is
         * still owed restarts at each reply. */
        c->owed--;
        c->last_reply_us = rl_now_us();
        c->owed_since_us = c->owed > 0 ? c->last_reply_us : 0;
    }
    return reply;
}

void rl_conn_set_down_until(rl_conn *c, int64_t until_us)
{
    c->down_until_us = until_us;
}

void rl_conn_set_authed(rl_conn *c, int authed)
{
    c->authed = authed;
}

void rl_conn_owe_discards(rl_conn *c, int n)
{
    c->discard += n;
}

void rl_conn_discard_one(rl_conn *c, const void *reply)
{
    discarded(c, reply);
}

void rl_conn_abandon_owed(rl_conn *c)
{
    c->discard = c->fd >= 0 ? c->owed : 0;
}

void rl_conn_set_must_answer(rl_conn *c)
{
    c->must_answer = 1;
}

void rl_conn_set_limits(rl_conn *c, const rl_reply_limits *limits)
{
    if (limits != NULL) {
        c->limits = *limits;
    } else {
        rl_reply_limits_default(&c->limits);
    }
}

void rl_conn_set_name(rl_conn *c, const char *name)
{
    snprintf(c->name, sizeof c->name, "%s", name);
}
