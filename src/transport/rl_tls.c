#include "rl_tls.h"
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <openssl/err.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

struct rl_tls_ctx {
    SSL_CTX *ctx;
    char *key; /* the settings' identity (length-prefixed fields) */
    size_t key_len;
    char *peer_name; /* NULL: the host of each connection */
    int verify_peer, verify_peer_name;
    struct rl_tls_ctx *next;
};

/* Shared by every thread (the PHP threads of a thread-safe PHP, the
 * watchdog's connections): the list, the BIO method, the ex data index and
 * the count of sessions, under tls_mu. None of it is on a lock's path:
 * only making a context (an object's construction) and a TLS connection's
 * start and end take the mutex. */
static pthread_mutex_t tls_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static struct rl_tls_ctx *contexts;
static int asked_index = -1; /* ex data of an SSL: the server asked for a client certificate we did not have */
static BIO_METHOD *sock_method;
static size_t sessions;      /* SSLs made by rl_tls_new() and not yet freed */
static int shutdown_pending; /* rl_tls_shutdown() came while sessions were left: the last one frees */

static void before_fork(void)
{
    pthread_mutex_lock(&tls_mu);
}

static void after_fork(void)
{
    pthread_mutex_unlock(&tls_mu);
}

static void register_atfork(void)
{
    pthread_atfork(before_fork, after_fork, after_fork);
}

/* ---- a socket BIO that never raises SIGPIPE ---- */

static int bio_write(BIO *b, const char *buf, int len)
{
    int fd = (int)(intptr_t)BIO_get_data(b);
    ssize_t n;
    BIO_clear_retry_flags(b);
    do {
        n = send(fd, buf, (size_t)len, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        BIO_set_retry_write(b);
    }
    return (int)n;
}

static int bio_read(BIO *b, char *buf, int len)
{
    int fd = (int)(intptr_t)BIO_get_data(b);
    ssize_t n;
    BIO_clear_retry_flags(b);
    do {
        n = recv(fd, buf, (size_t)len, 0);
    } while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        BIO_set_retry_read(b);
    }
    return (int)n;
}

static long bio_ctrl(BIO *b, int cmd, long num, void *ptr)
{
    (void)b;
    (void)num;
    (void)ptr;
    return cmd == BIO_CTRL_FLUSH ? 1 : 0;
}

static int bio_create(BIO *b)
{
    BIO_set_init(b, 1);
    return 1;
}

/* Under tls_mu. */
static BIO_METHOD *socket_method(void)
{
    if (sock_method == NULL) {
        sock_method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "redislock socket");
        if (sock_method != NULL) {
            BIO_meth_set_write(sock_method, bio_write);
            BIO_meth_set_read(sock_method, bio_read);
            BIO_meth_set_ctrl(sock_method, bio_ctrl);
            BIO_meth_set_create(sock_method, bio_create);
        }
    }
    return sock_method;
}

/* ---- contexts ---- */

static void put(char **p, size_t *len, char tag, const void *s, size_t n, int present)
{
    char head[32];
    int h = present ? snprintf(head, sizeof head, "%c%zu:", tag, n) : snprintf(head, sizeof head, "%c-", tag);
    char *grown = realloc(*p, *len + (size_t)h + (present ? n : 0) + 1);
    if (grown == NULL) {
        free(*p);
        *p = NULL;
        return;
    }
    *p = grown;
    memcpy(*p + *len, head, (size_t)h);
    *len += (size_t)h;
    if (present) {
        memcpy(*p + *len, s, n);
        *len += n;
    }
}

static void put_str(char **p, size_t *len, char tag, const char *s)
{
    if (*p != NULL || *len == 0) {
        put(p, len, tag, s, s ? strlen(s) : 0, s != NULL);
    }
}

/* The identity of cfg; the passphrase only as its SHA-256. */
static char *settings_key(const rl_tls_config *cfg, size_t *len)
{
    char *p = NULL, flags[4];
    unsigned char digest[SHA256_DIGEST_LENGTH];

    *len = 0;
    put_str(&p, len, 'a', cfg->cafile);
    put_str(&p, len, 'A', cfg->capath);
    put_str(&p, len, 'c', cfg->local_cert);
    put_str(&p, len, 'k', cfg->local_pk);
    put_str(&p, len, 'n', cfg->peer_name);
    if (p != NULL && cfg->passphrase != NULL) {
        SHA256((const unsigned char *)cfg->passphrase, strlen(cfg->passphrase), digest);
        put(&p, len, 'P', digest, sizeof digest, 1);
        OPENSSL_cleanse(digest, sizeof digest);
    } else if (p != NULL) {
        put(&p, len, 'P', NULL, 0, 0);
    }
    snprintf(flags, sizeof flags, "%d%d", cfg->verify_peer != 0, cfg->verify_peer_name != 0);
    if (p != NULL) {
        put(&p, len, 'v', flags, 2, 1);
    }
    return p;
}

static int passphrase_cb(char *buf, int size, int rwflag, void *userdata)
{
    const char *pass = userdata;
    size_t n;
    (void)rwflag;
    if (pass == NULL) {
        return 0;
    }
    n = strlen(pass);
    if (n > (size_t)size) {
        n = (size_t)size;
    }
    memcpy(buf, pass, n);
    return (int)n;
}

static int no_client_cert(SSL *ssl, X509 **x509, EVP_PKEY **pkey)
{
    (void)x509;
    (void)pkey;
    if (asked_index >= 0) {
        SSL_set_ex_data(ssl, asked_index, (void *)1);
    }
    return 0;
}

static void openssl_reason(char *out, size_t len)
{
    unsigned long e = ERR_peek_last_error();
    const char *why = e ? ERR_reason_error_string(e) : NULL;
    snprintf(out, len, "%s", why ? why : "unknown error");
    ERR_clear_error();
}

/* Under tls_mu (asked_index). */
static SSL_CTX *make_ctx(const rl_tls_config *cfg, char *err, size_t errlen)
{
    char why[160];
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());

    if (ctx == NULL) {
        snprintf(err, errlen, "cannot create a TLS context");
        return NULL;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_CTX_clear_mode(ctx, SSL_MODE_AUTO_RETRY);
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
    SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF); /* a server that just closes: EOF, not an error */
#endif
    SSL_CTX_set_verify(ctx, cfg->verify_peer ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, NULL);
    if (cfg->cafile || cfg->capath) {
        if (SSL_CTX_load_verify_locations(ctx, cfg->cafile, cfg->capath) != 1) {
            openssl_reason(why, sizeof why);
            snprintf(err, errlen, "key \"%s\": cannot load CA certificates: %s", cfg->cafile ? "cafile" : "capath",
                     why);
            goto fail;
        }
    } else if (SSL_CTX_set_default_verify_paths(ctx) != 1) {
        ERR_clear_error();
    }
    if (cfg->local_cert) {
        if (SSL_CTX_use_certificate_chain_file(ctx, cfg->local_cert) != 1) {
            openssl_reason(why, sizeof why);
            snprintf(err, errlen, "key \"local_cert\": cannot load the certificate: %s", why);
            goto fail;
        }
        /* the passphrase is used here, once, and not kept */
        SSL_CTX_set_default_passwd_cb(ctx, passphrase_cb);
        SSL_CTX_set_default_passwd_cb_userdata(ctx, (void *)cfg->passphrase);
        if (SSL_CTX_use_PrivateKey_file(ctx, cfg->local_pk ? cfg->local_pk : cfg->local_cert, SSL_FILETYPE_PEM) != 1) {
            openssl_reason(why, sizeof why);
            snprintf(err, errlen, "key \"%s\": cannot load the private key (wrong or missing passphrase?): %s",
                     cfg->local_pk ? "local_pk" : "local_cert", why);
            SSL_CTX_set_default_passwd_cb_userdata(ctx, NULL);
            goto fail;
        }
        SSL_CTX_set_default_passwd_cb_userdata(ctx, NULL);
        SSL_CTX_set_default_passwd_cb(ctx, NULL);
        if (SSL_CTX_check_private_key(ctx) != 1) {
            ERR_clear_error();
            snprintf(err, errlen, "key \"local_pk\": the private key does not match the certificate");
            goto fail;
        }
    } else if (cfg->local_pk) {
        snprintf(err, errlen, "key \"local_pk\" needs \"local_cert\" too");
        goto fail;
    } else {
        /* With TLS 1.3 the client's handshake is over before the server
         * judges its certificate: the refusal (an alert, or a reset that
         * beats it) comes at the first read. Remember it was asked. */
        if (asked_index < 0) {
            asked_index = SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL);
        }
        SSL_CTX_set_client_cert_cb(ctx, no_client_cert);
    }
    return ctx;
fail:
    SSL_CTX_free(ctx);
    return NULL;
}

rl_tls_ctx *rl_tls_ctx_get(const rl_tls_config *cfg, char *err, size_t errlen)
{
    size_t len;
    char *key = settings_key(cfg, &len);
    rl_tls_ctx *t;

    if (key == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_once(&atfork_once, register_atfork);
    pthread_mutex_lock(&tls_mu);
    for (t = contexts; t; t = t->next) {
        if (t->key_len == len && memcmp(t->key, key, len) == 0) {
            pthread_mutex_unlock(&tls_mu);
            free(key);
            return t;
        }
    }
    t = calloc(1, sizeof *t);
    if (t == NULL || (cfg->peer_name && (t->peer_name = strdup(cfg->peer_name)) == NULL)) {
        pthread_mutex_unlock(&tls_mu);
        free(t);
        free(key);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    t->ctx = make_ctx(cfg, err, errlen);
    if (t->ctx == NULL) {
        pthread_mutex_unlock(&tls_mu);
        free(t->peer_name);
        free(t);
        free(key);
        return NULL;
    }
    t->key = key;
    t->key_len = len;
    t->verify_peer = cfg->verify_peer;
    t->verify_peer_name = cfg->verify_peer_name;
    t->next = contexts;
    contexts = t;
    pthread_mutex_unlock(&tls_mu);
    return t;
}

const char *rl_tls_ctx_key(const rl_tls_ctx *ctx, size_t *len)
{
    *len = ctx->key_len;
    return ctx->key;
}

/* Under tls_mu. */
static void free_everything(void)
{
    shutdown_pending = 0;
    while (contexts) {
        rl_tls_ctx *t = contexts;
        contexts = t->next;
        SSL_CTX_free(t->ctx);
        free(t->peer_name);
        free(t->key);
        free(t);
    }
    if (sock_method) {
        BIO_meth_free(sock_method);
        sock_method = NULL;
    }
}

void rl_tls_shutdown(void)
{
    pthread_mutex_lock(&tls_mu);
    if (sessions == 0) {
        free_everything();
    } else {
        shutdown_pending = 1; /* another thread's pool still holds sessions: freed with the last */
    }
    pthread_mutex_unlock(&tls_mu);
}

/* ---- sessions ---- */

static int is_ip(const char *s)
{
    unsigned char buf[sizeof(struct in6_addr)];
    return inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1;
}

void *rl_tls_new(rl_tls_ctx *t, int fd, const char *host, char *err, size_t errlen)
{
    const char *name = t->peer_name ? t->peer_name : host;
    BIO_METHOD *m;
    SSL *ssl;
    BIO *bio;

    ERR_clear_error();
    pthread_mutex_lock(&tls_mu);
    m = socket_method();
    ssl = m ? SSL_new(t->ctx) : NULL;
    bio = ssl ? BIO_new(m) : NULL;
    if (bio != NULL) {
        sessions++;
    }
    pthread_mutex_unlock(&tls_mu);
    if (bio == NULL) {
        if (ssl != NULL) {
            SSL_free(ssl);
        }
        snprintf(err, errlen, "TLS: out of memory");
        return NULL;
    }
    BIO_set_data(bio, (void *)(intptr_t)fd);
    SSL_set_bio(ssl, bio, bio);
    if (name != NULL) {
        int ip = is_ip(name);
        if (!ip) {
            SSL_set_tlsext_host_name(ssl, name); /* SNI: names only, never an address */
        }
        if (t->verify_peer && t->verify_peer_name) {
            int ok = ip ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) : SSL_set1_host(ssl, name);
            if (ok != 1) {
                rl_tls_free(ssl, 0);
                ERR_clear_error();
                snprintf(err, errlen, "TLS: cannot check the peer name");
                return NULL;
            }
        }
    }
    SSL_set_app_data(ssl, (void *)name); /* for messages; outlives ssl (the context's or the connection's) */
    SSL_set_connect_state(ssl);
    return ssl;
}

/* What went wrong, in words a user can act on. */
static int failure(SSL *ssl, int rc, char *err, size_t errlen)
{
    int e = SSL_get_error(ssl, rc);
    unsigned long code;
    long vr;

    switch (e) {
    case SSL_ERROR_WANT_READ:
        return RL_TLS_WANT_READ;
    case SSL_ERROR_WANT_WRITE:
        return RL_TLS_WANT_WRITE;
    case SSL_ERROR_ZERO_RETURN:
        snprintf(err, errlen, "connection closed by server");
        return RL_TLS_CLOSED;
    case SSL_ERROR_SYSCALL:
        code = ERR_peek_last_error();
        if (code != 0 && ERR_GET_LIB(code) == ERR_LIB_SYS) {
            /* OpenSSL 3.2+ queues the socket's errno as an error of its
             * own (and leaves errno as it was): the same case as below */
            errno = ERR_GET_REASON(code);
            ERR_clear_error();
            code = 0;
        }
        if (code == 0) {
            if (errno == 0 || rc == 0) {
                snprintf(err, errlen, "connection closed by server");
                return RL_TLS_CLOSED;
            }
            if (asked_index >= 0 && SSL_get_ex_data(ssl, asked_index) != NULL) {
                snprintf(err, errlen,
                         "TLS: %s: the server asked for a client certificate, none was "
                         "given (option tls.local_cert)",
                         strerror(errno));
            } else {
                snprintf(err, errlen, "TLS: %s", strerror(errno));
            }
            return RL_TLS_FAILED;
        }
        break;
    default:
        break;
    }
    vr = SSL_get_verify_result(ssl);
    code = ERR_peek_last_error();
    if (vr != X509_V_OK && ERR_GET_REASON(code) == SSL_R_CERTIFICATE_VERIFY_FAILED) {
        const char *name = SSL_get_app_data(ssl), *hint = "";
        if (vr == X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN || vr == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY
            || vr == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT || vr == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT) {
            hint = " (unknown CA: see option tls.cafile)";
        }
        if ((vr == X509_V_ERR_HOSTNAME_MISMATCH || vr == X509_V_ERR_IP_ADDRESS_MISMATCH) && name != NULL) {
            snprintf(err, errlen,
                     "TLS: certificate verify failed: %s: the certificate is not for \"%.100s\" "
                     "(option tls.peer_name)",
                     X509_verify_cert_error_string(vr), name);
        } else {
            snprintf(err, errlen, "TLS: certificate verify failed: %s%s", X509_verify_cert_error_string(vr), hint);
        }
    } else if (ERR_GET_REASON(code) == SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED) {
        snprintf(err, errlen, "TLS: the server requires a client certificate (option tls.local_cert)");
    } else if (code != 0 && ERR_reason_error_string(code) != NULL) {
        snprintf(err, errlen, "TLS: %s", ERR_reason_error_string(code));
    } else {
        snprintf(err, errlen, "TLS: error %d", e);
    }
    ERR_clear_error();
    return RL_TLS_FAILED;
}

int rl_tls_handshake(void *ssl, char *err, size_t errlen)
{
    int rc;
    ERR_clear_error();
    errno = 0;
    rc = SSL_do_handshake(ssl);
    if (rc == 1) {
        return RL_TLS_DONE;
    }
    rc = failure(ssl, rc, err, errlen);
    if (rc == RL_TLS_CLOSED) {
        snprintf(err, errlen, "TLS: connection closed during the handshake (not a TLS port?)");
        return RL_TLS_FAILED;
    }
    return rc;
}

long rl_tls_read(void *ssl, char *buf, size_t len, char *err, size_t errlen)
{
    int rc;
    ERR_clear_error();
    errno = 0;
    rc = SSL_read(ssl, buf, len > INT32_MAX ? INT32_MAX : (int)len);
    return rc > 0 ? rc : failure(ssl, rc, err, errlen);
}

long rl_tls_write(void *ssl, const char *buf, size_t len, char *err, size_t errlen)
{
    int rc;
    ERR_clear_error();
    errno = 0;
    rc = SSL_write(ssl, buf, len > INT32_MAX ? INT32_MAX : (int)len);
    return rc > 0 ? rc : failure(ssl, rc, err, errlen);
}

int rl_tls_pending(void *ssl)
{
    return SSL_pending(ssl) > 0;
}

void rl_tls_free(void *ssl, int polite)
{
    if (polite) {
        ERR_clear_error();
        SSL_shutdown(ssl); /* one close_notify, not waiting for the peer's */
    }
    ERR_clear_error();
    SSL_free(ssl);
    pthread_mutex_lock(&tls_mu);
    sessions--;
    if (shutdown_pending && sessions == 0) {
        free_everything();
    }
    pthread_mutex_unlock(&tls_mu);
}
