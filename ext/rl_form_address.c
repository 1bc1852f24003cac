/* A server as PHP gives it (a string, a [host, port] array, a phpredis
 * \Redis) to an endpoint, with the options' credentials, database and TLS
 * settings on top. The options themselves are read in rl_form_options.c. */
#include "rl_form_options.h"
#include "rl_form_address.h"
#include "zend_exceptions.h"
#include <strings.h>
#include "src/transport/rl_endpoint_parse.h"
#include "src/transport/rl_host.h"
#include "src/transport/rl_redact.h"
#include "src/transport/rl_tls.h"

/* A socket path with a query ("/run/redis.sock?password=pw") would be
 * shown, as parsed, in every message about its node; an '@' is common in
 * paths (systemd) and a path holds no user-info. Hosts are judged by the
 * one host rule (src/transport/rl_host.h), in rl_endpoint_parse(). */
static bool path_may_be_shown(const char *path)
{
    return !strchr(path, '?') && !strchr(path, '#');
}

static zend_result from_string(rl_endpoint *ep, zend_string *spec, uint32_t argnum, const char *what)
{
    char err[160], shown[RL_REDACT_BUFLEN];
    int rc = rl_endpoint_parse(ZSTR_VAL(spec), ZSTR_LEN(spec), ep, err, sizeof err);

    if (rc == 0 && ep->unix_path && !path_may_be_shown(ep->unix_path)) {
        snprintf(err, sizeof err, "unix socket path contains '?' or '#'");
        rc = -1;
    }
    if (rc != 0) {
        rl_endpoint_clear(ep);
        /* the address as given may hold a password: never shown whole */
        rl_endpoint_redact(ZSTR_VAL(spec), ZSTR_LEN(spec), shown, sizeof shown);
        zend_argument_value_error(argnum, "%smust be a valid server address (\"%s\"): %s", what, shown, err);
        return FAILURE;
    }
    return SUCCESS;
}

static zend_result from_array(rl_endpoint *ep, HashTable *ht, uint32_t argnum, const char *what)
{
    zval *host = zend_hash_str_find_deref(ht, "host", 4);
    zval *port = zend_hash_str_find_deref(ht, "port", 4);
    zend_string *key;
    rl_host_fault fault;

    memset(ep, 0, sizeof *ep);
    ZEND_HASH_FOREACH_STR_KEY(ht, key) {
        if (key == NULL || (!zend_string_equals_literal(key, "host") && !zend_string_equals_literal(key, "port"))) {
            zend_argument_value_error(argnum, "%smust be an array with only the keys \"host\" and \"port\"", what);
            return FAILURE;
        }
    }
    ZEND_HASH_FOREACH_END();
    if (host == NULL || Z_TYPE_P(host) != IS_STRING || Z_STRLEN_P(host) == 0) {
        zend_argument_value_error(argnum, "%s[\"host\"] must be a non-empty string", what);
        return FAILURE;
    }
    if (Z_STRVAL_P(host)[0] == '/') { /* ['host' => '/run/redis.sock'] as phpredis allows */
        if (port != NULL) {
            zend_argument_value_error(argnum, "%s[\"port\"] must not be given with a unix socket path as [\"host\"]",
                                      what);
            return FAILURE;
        }
        return from_string(ep, Z_STR_P(host), argnum, what);
    }
    if (port != NULL && (Z_TYPE_P(port) != IS_LONG || Z_LVAL_P(port) < 1 || Z_LVAL_P(port) > 65535)) {
        zend_argument_value_error(argnum, "%s[\"port\"] must be an int from 1 to 65535", what);
        return FAILURE;
    }
    fault = rl_host_check(Z_STRVAL_P(host), Z_STRLEN_P(host), NULL);
    if (fault != RL_HOST_OK) { /* an IPv6 address is written bare here: a ':' otherwise is a port's */
        zend_argument_value_error(argnum, "%s[\"host\"] must be a host name or address%s", what,
                                  fault == RL_HOST_NOT_IPV6 ? ", without a port" : "");
        return FAILURE;
    }
    rl_endpoint_set_str(&ep->host, Z_STRVAL_P(host), Z_STRLEN_P(host));
    ep->port = port ? (int)Z_LVAL_P(port) : RL_DEFAULT_PORT;
    return SUCCESS;
}

static zend_result call_method(zend_object *obj, const char *name, zval *ret)
{
    zend_function *fn = zend_hash_str_find_ptr_lc(&obj->ce->function_table, name, strlen(name));
    ZVAL_UNDEF(ret);
    if (fn == NULL) {
        return FAILURE;
    }
    zend_call_known_instance_method_with_0_params(fn, obj, ret);
    return EG(exception) ? FAILURE : SUCCESS;
}

/* A phpredis \Redis: its endpoint, AUTH and database; we talk on our own socket. */
static zend_result from_redis(rl_endpoint *ep, zend_object *redis, uint32_t argnum, const char *what)
{
    zval host, port, db, auth;
    zend_result ok = FAILURE;

    memset(ep, 0, sizeof *ep);
    ZVAL_UNDEF(&port);
    ZVAL_UNDEF(&db);
    ZVAL_UNDEF(&auth);
    if (call_method(redis, "getHost", &host) == FAILURE || Z_TYPE(host) != IS_STRING || Z_STRLEN(host) == 0
        || call_method(redis, "getPort", &port) == FAILURE || call_method(redis, "getDbNum", &db) == FAILURE
        || call_method(redis, "getAuth", &auth) == FAILURE) {
        if (!EG(exception)) {
            zend_argument_value_error(argnum, "%smust be a connected Redis object", what);
        }
        goto done;
    }
    const char *h = Z_STRVAL(host), *sep = strstr(h, "://");
    if (sep != NULL) { /* phpredis's connect() takes a stream transport before the host */
        size_t n = (size_t)(sep - h);
        if ((n == 3 && (strncasecmp(h, "tls", 3) == 0 || strncasecmp(h, "ssl", 3) == 0))
            || (n >= 5 && strncasecmp(h, "tlsv1", 5) == 0)) {
            ep->tls = 1; /* the options' "tls" settings: phpredis does not show its stream context */
        } else if ((n != 3 || strncasecmp(h, "tcp", 3) != 0) && (n != 4 || strncasecmp(h, "unix", 4) != 0)) {
            zend_argument_value_error(argnum,
                                      "%sis a Redis object connected over a transport other than tcp://, "
                                      "tls:// or a unix socket",
                                      what);
            goto done;
        }
        h = sep + 3;
        if (h[0] == '\0' || (n == 4 && h[0] != '/')) { /* nothing after it, or unix:// without a path */
            zend_argument_value_error(argnum, "%smust be a connected Redis object", what);
            goto done;
        }
    }
    /* a subclass may say anything: its host and port pass the rules a
     * server string's do, so no control byte reaches a message or a log */
    size_t hlen = Z_STRLEN(host) - (size_t)(h - Z_STRVAL(host));
    const char *why = "a NUL byte in it";
    if (memchr(h, '\0', hlen) != NULL || (h[0] != '/' && rl_host_check(h, hlen, &why) != RL_HOST_OK)) {
        zend_argument_value_error(argnum, "%sis a Redis object whose %s is not valid: %s", what,
                                  h[0] == '/' ? "socket path" : "host", why);
        goto done;
    }
    if (h[0] != '/' && Z_TYPE(port) == IS_LONG && Z_LVAL(port) > 65535) {
        zend_argument_value_error(argnum,
                                  "%sis a Redis object connected to port " ZEND_LONG_FMT
                                  ": the port must be from 1 to 65535",
                                  what, Z_LVAL(port));
        goto done;
    }
    if (h[0] == '/') { /* a socket, whatever the scheme said: as phpredis reads it */
        ep->tls = 0;
        rl_endpoint_set_str(&ep->unix_path, h, hlen);
    } else {
        rl_endpoint_set_str(&ep->host, h, hlen);
        ep->port = Z_TYPE(port) == IS_LONG && Z_LVAL(port) > 0 ? (int)Z_LVAL(port) : RL_DEFAULT_PORT;
    }
    /* what the connection is logged in as and on: an option that says
     * otherwise is refused, as for a URL */
    ep->from_address = RL_EP_DATABASE | RL_EP_FROM_CLIENT;
    ep->database = Z_TYPE(db) == IS_LONG && Z_LVAL(db) > 0 ? (long)Z_LVAL(db) : 0;
    if (Z_TYPE(auth) == IS_STRING) {
        rl_endpoint_set_str(&ep->password, Z_STRVAL(auth), Z_STRLEN(auth));
    } else if (Z_TYPE(auth) == IS_ARRAY) { /* [user, pass] or [pass] */
        zval *u = zend_hash_index_find(Z_ARRVAL(auth), 0), *p = zend_hash_index_find(Z_ARRVAL(auth), 1);
        if (p == NULL) {
            p = u;
            u = NULL;
        }
        if (u && Z_TYPE_P(u) == IS_STRING) {
            rl_endpoint_set_str(&ep->username, Z_STRVAL_P(u), Z_STRLEN_P(u));
        }
        if (p && Z_TYPE_P(p) == IS_STRING) {
            rl_endpoint_set_str(&ep->password, Z_STRVAL_P(p), Z_STRLEN_P(p));
        }
    }
    ep->from_address |= (ep->username ? RL_EP_USERNAME : 0) | (ep->password ? RL_EP_PASSWORD : 0);
    ok = SUCCESS;
done:
    zval_ptr_dtor(&host);
    zval_ptr_dtor(&port);
    zval_ptr_dtor(&db);
    zval_ptr_dtor(&auth);
    return ok;
}

/* A URL's (or a \Redis connection's) user-info or database and the same option given differently. */
static zend_result conflict(int ep_from, uint32_t argnum, const char *what, const char *part, const rl_settings *s,
                            const char *option)
{
    zend_argument_value_error(argnum,
                              "%ssets %s %s, and Argument #%u ($options) sets another in option "
                              "\"%s\": give it once",
                              what, part, (ep_from & RL_EP_FROM_CLIENT) ? "on its connection" : "in its URL", s->argnum,
                              option);
    return FAILURE;
}

/* The options' credentials and database on top of the address's own. */
static zend_result apply_options(rl_endpoint *ep, const rl_settings *s, uint32_t argnum, const char *what)
{
    if (s->username) {
        if ((ep->from_address & RL_EP_USERNAME)
            && !zend_string_equals_cstr(s->username, ep->username, strlen(ep->username))) {
            return conflict(ep->from_address, argnum, what, "a user name", s, "username");
        }
        rl_endpoint_set_str(&ep->username, ZSTR_VAL(s->username), ZSTR_LEN(s->username));
    }
    if (s->password) {
        if ((ep->from_address & RL_EP_PASSWORD)
            && !zend_string_equals_cstr(s->password, ep->password, strlen(ep->password))) {
            return conflict(ep->from_address, argnum, what, "a password", s, "password");
        }
        rl_endpoint_set_str(&ep->password, ZSTR_VAL(s->password), ZSTR_LEN(s->password));
    }
    if (s->database >= 0) {
        if ((ep->from_address & RL_EP_DATABASE) && ep->database != (long)s->database) {
            return conflict(ep->from_address, argnum, what, "a database", s, "database");
        }
        ep->database = (long)s->database;
    }
    return SUCCESS;
}

zend_result rl_endpoint_from_zval(rl_endpoint *ep, zval *server, const rl_settings *s, uint32_t argnum,
                                  const char *what)
{
    zend_result rc;

    ZVAL_DEREF(server);
    switch (Z_TYPE_P(server)) {
    case IS_STRING:
        rc = from_string(ep, Z_STR_P(server), argnum, what);
        break;
    case IS_ARRAY:
        rc = from_array(ep, Z_ARRVAL_P(server), argnum, what);
        break;
    case IS_OBJECT: {
        /* only phpredis's \Redis (or a subclass): never call methods of any other object */
        zend_class_entry *redis_ce = zend_hash_str_find_ptr(EG(class_table), "redis", 5);
        if (redis_ce == NULL || !instanceof_function(Z_OBJCE_P(server), redis_ce)) {
            zend_argument_type_error(argnum, "%smust be of type Redis|RedisCluster|string|array, %s given", what,
                                     zend_zval_type_name(server));
            return FAILURE;
        }
        rc = from_redis(ep, Z_OBJ_P(server), argnum, what);
        break;
    }
    default:
        zend_argument_type_error(argnum, "%smust be of type Redis|RedisCluster|string|array, %s given", what,
                                 zend_zval_type_name(server));
        return FAILURE;
    }
    if (rc == FAILURE) {
        rl_endpoint_clear(ep);
        return FAILURE;
    }
    if (ep->tls) {
        /* one context per distinct settings, made once per process: its
         * errors (a key that does not load) are the constructor's */
        char err[300];
        rl_tls_config cfg;
        rl_tls_ctx *ctx;
#define TLS_STR(i) (s->tls_str[i] ? ZSTR_VAL(s->tls_str[i]) : NULL)
        cfg.cafile = TLS_STR(RL_TLS_CAFILE);
        cfg.capath = TLS_STR(RL_TLS_CAPATH);
        cfg.local_cert = TLS_STR(RL_TLS_LOCAL_CERT);
        cfg.local_pk = TLS_STR(RL_TLS_LOCAL_PK);
        cfg.passphrase = TLS_STR(RL_TLS_PASSPHRASE);
        cfg.peer_name = TLS_STR(RL_TLS_PEER_NAME);
#undef TLS_STR
        cfg.verify_peer = s->tls_verify_peer;
        cfg.verify_peer_name = s->tls_verify_peer_name;
        ctx = rl_tls_ctx_get(&cfg, err, sizeof err);
        if (ctx == NULL) {
            zend_argument_value_error(s->argnum, "option \"tls\" %s", err);
            rl_endpoint_clear(ep);
            return FAILURE;
        }
        ep->tls_ctx = ctx;
        ep->tls_key = rl_tls_ctx_key(ctx, &ep->tls_key_len);
    } else if (s->tls_given) {
        /* a typo in the address must not silently talk plaintext */
        zend_argument_value_error(argnum,
                                  "%sis not a TLS address (tls://host:port, rediss://... or valkeys://...), but "
                                  "Argument #%u ($options) has option \"tls\"",
                                  what, s->argnum);
        rl_endpoint_clear(ep);
        return FAILURE;
    }
    if (apply_options(ep, s, argnum, what) == FAILURE) {
        rl_endpoint_clear(ep);
        return FAILURE;
    }
    return SUCCESS;
}
