#include "rl_config.h"
#include "src/lock/rl_watchdog.h"
#include "php_redislock.h"
#include "rl_observe.h"
#include "zend_exceptions.h"
#include "src/transport/rl_redact.h"
#include "src/transport/rl_tls.h"
#include <sys/stat.h>
#include <arpa/inet.h>

static zend_result type_error(uint32_t argnum, const char *name, const char *type, zval *v)
{
    zend_argument_type_error(argnum, "option \"%s\" must be of type %s, %s given", name, type,
                             zend_zval_type_name(v));
    return FAILURE;
}

static zend_result opt_seconds(zval *v, double *out, uint32_t argnum, const char *name)
{
    if (Z_TYPE_P(v) == IS_LONG) {
        *out = (double)Z_LVAL_P(v);
    } else if (Z_TYPE_P(v) == IS_DOUBLE) {
        *out = Z_DVAL_P(v);
    } else {
        return type_error(argnum, name, "float", v);
    }
    if (!(*out > 0.0) || *out > 86400.0) {
        zend_argument_value_error(argnum, "option \"%s\" must be greater than 0 and at most 86400 seconds", name);
        return FAILURE;
    }
    return SUCCESS;
}

static zend_result opt_nullable_string(zval *v, zend_string **out, uint32_t argnum, const char *name)
{
    if (Z_TYPE_P(v) == IS_NULL) {
        return SUCCESS;
    }
    if (Z_TYPE_P(v) != IS_STRING) {
        return type_error(argnum, name, "?string", v);
    }
    if (Z_STRLEN_P(v) == 0 || memchr(Z_STRVAL_P(v), '\0', Z_STRLEN_P(v))) {
        zend_argument_value_error(argnum, "option \"%s\" must be a non-empty string without NUL bytes", name);
        return FAILURE;
    }
    *out = zend_string_copy(Z_STR_P(v));
    return SUCCESS;
}

static zend_result opt_bool(zval *v, bool *out, uint32_t argnum, const char *name)
{
    if (Z_TYPE_P(v) != IS_TRUE && Z_TYPE_P(v) != IS_FALSE) {
        return type_error(argnum, name, "bool", v);
    }
    *out = Z_TYPE_P(v) == IS_TRUE;
    return SUCCESS;
}

static zend_result opt_database(zval *v, zend_long *out, uint32_t argnum)
{
    if (Z_TYPE_P(v) != IS_LONG) {
        return type_error(argnum, "database", "int", v);
    }
    if (Z_LVAL_P(v) < 0 || Z_LVAL_P(v) > INT_MAX) {
        zend_argument_value_error(argnum, "option \"database\" must be between 0 and %d", INT_MAX);
        return FAILURE;
    }
    *out = Z_LVAL_P(v);
    return SUCCESS;
}

static zend_result set_prefix(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    if (Z_TYPE_P(v) != IS_STRING) {
        return type_error(argnum, name, "string", v);
    }
    zend_string_release(s->prefix);
    s->prefix = zend_string_copy(Z_STR_P(v));
    return SUCCESS;
}

static zend_result set_connect_timeout(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    return opt_seconds(v, &s->connect_timeout, argnum, name);
}

static zend_result set_timeout(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    return opt_seconds(v, &s->timeout, argnum, name);
}

static zend_result set_username(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    return opt_nullable_string(v, &s->username, argnum, name);
}

static zend_result set_password(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    return opt_nullable_string(v, &s->password, argnum, name);
}

static zend_result set_database(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    (void)name;
    return opt_database(v, &s->database, argnum);
}

static zend_result set_persistent(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    return opt_bool(v, &s->persistent, argnum, name);
}

static zend_result set_auto_release(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    return opt_bool(v, &s->auto_release, argnum, name);
}

static zend_result set_reentrant(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    return opt_bool(v, &s->reentrant, argnum, name);
}

static zend_result set_fencing(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    return opt_bool(v, &s->fencing, argnum, name);
}

static zend_result set_auto_extend(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    if (opt_bool(v, &s->auto_extend, argnum, name) == FAILURE) {
        return FAILURE;
    }
    if (s->auto_extend && !RL_HAVE_WATCHDOG) {
        zend_argument_value_error(argnum, "option \"auto_extend\" needs the watchdog thread, "
                                  "and this build has none (no POSIX threads)");
        return FAILURE;
    }
    return SUCCESS;
}

static zend_result set_max_hold(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    if (Z_TYPE_P(v) != IS_DOUBLE && Z_TYPE_P(v) != IS_LONG) {
        return type_error(argnum, name, "float", v);
    }
    s->max_hold = zval_get_double(v);
    if (!(s->max_hold >= 0.0 && s->max_hold <= 31536000.0)) {
        zend_argument_value_error(argnum, "option \"max_hold\" must be between 0 (no cap) and 31536000 seconds");
        return FAILURE;
    }
    return SUCCESS;
}

static zend_result set_logger(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    (void)name;
    if (rl_logger_check(v, argnum) == FAILURE) {
        return FAILURE;
    }
    zval_ptr_dtor(&s->logger);
    ZVAL_COPY(&s->logger, v);
    return SUCCESS;
}

static zend_result set_drift_factor(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    if (Z_TYPE_P(v) != IS_DOUBLE && Z_TYPE_P(v) != IS_LONG) {
        return type_error(argnum, name, "float", v);
    }
    s->drift_factor = zval_get_double(v);
    if (!(s->drift_factor >= 0.0 && s->drift_factor < 0.5)) {
        zend_argument_value_error(argnum, "option \"drift_factor\" must be at least 0 and less than 0.5");
        return FAILURE;
    }
    return SUCCESS;
}

static zend_result set_min_replicas(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    if (Z_TYPE_P(v) != IS_LONG) {
        return type_error(argnum, name, "int", v);
    }
    if (Z_LVAL_P(v) < 0 || Z_LVAL_P(v) > 1000) {
        zend_argument_value_error(argnum, "option \"min_replicas\" must be between 0 and 1000");
        return FAILURE;
    }
    s->min_replicas = Z_LVAL_P(v);
    return SUCCESS;
}

static zend_result set_replica_timeout(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    if (opt_seconds(v, &s->replica_timeout, argnum, name) == FAILURE) {
        return FAILURE;
    }
    if (s->replica_timeout < 0.001) {
        zend_argument_value_error(argnum, "option \"replica_timeout\" must be at least 0.001 seconds");
        return FAILURE;
    }
    return SUCCESS;
}

static const char *const tls_names[] = {"cafile", "capath", "local_cert", "local_pk", "passphrase", "peer_name"};

/* The option "tls": PHP's ssl stream-context names. Paths must exist; the
 * passphrase is never shown. */
static zend_result set_tls(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    zend_string *key;
    zval *item;
    size_t i;

    if (Z_TYPE_P(v) != IS_ARRAY) {
        return type_error(argnum, name, "array", v);
    }
    s->tls_given = true;
    ZEND_HASH_FOREACH_STR_KEY_VAL(Z_ARRVAL_P(v), key, item) {
        bool known = false;
        ZVAL_DEREF(item);
        if (key == NULL) {
            zend_argument_value_error(argnum, "option \"tls\" must have setting names as keys");
            return FAILURE;
        }
        if (zend_string_equals_literal(key, "verify_peer") || zend_string_equals_literal(key, "verify_peer_name")) {
            bool *out = ZSTR_LEN(key) == 11 ? &s->tls_verify_peer : &s->tls_verify_peer_name;
            if (Z_TYPE_P(item) != IS_TRUE && Z_TYPE_P(item) != IS_FALSE) {
                zend_argument_type_error(argnum, "option \"tls\" key \"%s\" must be of type bool, %s given",
                                         ZSTR_VAL(key), zend_zval_type_name(item));
                return FAILURE;
            }
            *out = Z_TYPE_P(item) == IS_TRUE;
            continue;
        }
        for (i = 0; i < sizeof tls_names / sizeof tls_names[0]; i++) {
            struct stat st;
            if (!zend_string_equals_cstr(key, tls_names[i], strlen(tls_names[i]))) {
                continue;
            }
            known = true;
            if (Z_TYPE_P(item) != IS_STRING) {
                zend_argument_type_error(argnum, "option \"tls\" key \"%s\" must be of type string, %s given",
                                         tls_names[i], zend_zval_type_name(item));
                return FAILURE;
            }
            if (Z_STRLEN_P(item) == 0 || memchr(Z_STRVAL_P(item), '\0', Z_STRLEN_P(item))) {
                zend_argument_value_error(argnum, "option \"tls\" key \"%s\" must be a non-empty string without NUL bytes",
                                          tls_names[i]);
                return FAILURE;
            }
            if (i <= RL_TLS_LOCAL_PK) {
                bool dir = i == RL_TLS_CAPATH;
                if (stat(Z_STRVAL_P(item), &st) != 0 || (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
                    zend_argument_value_error(argnum, "option \"tls\" key \"%s\": %s \"%s\" does not exist",
                                              tls_names[i], dir ? "directory" : "file", Z_STRVAL_P(item));
                    return FAILURE;
                }
            }
            if (s->tls_str[i]) {
                zend_string_release(s->tls_str[i]);
            }
            s->tls_str[i] = zend_string_copy(Z_STR_P(item));
        }
        if (!known) {
            zend_argument_value_error(argnum, "option \"tls\" contains unknown key \"%s\"", ZSTR_VAL(key));
            return FAILURE;
        }
    } ZEND_HASH_FOREACH_END();
    return SUCCESS;
}

/* Every option, listed once: its name, how it is read, and whether only
 * RedLock knows it. */
static const struct rl_option {
    const char *name;
    zend_result (*set)(rl_settings *s, zval *v, uint32_t argnum, const char *name);
    bool redlock_only;
} options[] = {
    {"prefix", set_prefix, false},
    {"connect_timeout", set_connect_timeout, false},
    {"timeout", set_timeout, false},
    {"username", set_username, false},
    {"password", set_password, false},
    {"database", set_database, false},
    {"persistent", set_persistent, false},
    {"auto_release", set_auto_release, false},
    {"reentrant", set_reentrant, false},
    {"fencing", set_fencing, false},
    {"auto_extend", set_auto_extend, false},
    {"max_hold", set_max_hold, false},
    {"logger", set_logger, false},
    {"min_replicas", set_min_replicas, false},
    {"replica_timeout", set_replica_timeout, false},
    {"drift_factor", set_drift_factor, true},
    {"tls", set_tls, false},
};

static const struct rl_option *find_option(zend_string *name, bool redlock)
{
    size_t i;
    for (i = 0; i < sizeof options / sizeof options[0]; i++) {
        if (zend_string_equals_cstr(name, options[i].name, strlen(options[i].name))) {
            return redlock || !options[i].redlock_only ? &options[i] : NULL;
        }
    }
    return NULL;
}

zend_result rl_settings_parse(rl_settings *s, HashTable *given, uint32_t argnum, bool allow_drift)
{
    const struct rl_option *opt;
    zend_string *name;
    zval *v;

    memset(s, 0, sizeof *s);
    s->argnum = argnum;
    s->prefix = zend_string_init("lock:", 5, 0);
    s->connect_timeout = RLG(connect_timeout);
    s->timeout = RLG(timeout);
    s->database = -1;
    s->persistent = RLG(persistent);
    s->auto_release = RLG(auto_release);
    s->reentrant = true;
    s->drift_factor = 0.01;
    s->replica_timeout = 0.1;
    s->tls_verify_peer = s->tls_verify_peer_name = true;
    ZVAL_UNDEF(&s->logger);
    if (given == NULL) {
        return SUCCESS;
    }
    ZEND_HASH_FOREACH_STR_KEY_VAL(given, name, v) {
        ZVAL_DEREF(v);
        if (name == NULL) {
            zend_argument_value_error(argnum, "must have option names as keys");
            return FAILURE;
        }
        opt = find_option(name, allow_drift);
        if (opt == NULL) {
            zend_argument_value_error(argnum, "contains unknown option \"%s\"", ZSTR_VAL(name));
            return FAILURE;
        }
        if (opt->set(s, v, argnum, opt->name) == FAILURE) {
            return FAILURE;
        }
    } ZEND_HASH_FOREACH_END();
    if (s->username && !s->password) {
        zend_argument_value_error(argnum, "option \"username\" needs a \"password\" too");
        return FAILURE;
    }
    return SUCCESS;
}

void rl_settings_free(rl_settings *s)
{
    if (s->prefix) {
        zend_string_release(s->prefix);
    }
    if (s->username) {
        zend_string_release(s->username);
    }
    if (s->password) {
        zend_string_release(s->password);
    }
    for (size_t i = 0; i < sizeof s->tls_str / sizeof s->tls_str[0]; i++) {
        if (s->tls_str[i]) {
            zend_string_release(s->tls_str[i]);
        }
    }
    zval_ptr_dtor(&s->logger);
    memset(s, 0, sizeof *s);
}

/* A host name with '@', '?' or '#' would be shown, as parsed, in every
 * message about its node: it may hold a password ("pw@host", "h?auth=pw").
 * So would a socket path with a query ("/run/redis.sock?password=pw"); an
 * '@' is common in paths (systemd) and a path holds no user-info. */
static bool host_may_be_shown(const char *host, size_t len)
{
    return !memchr(host, '@', len) && !memchr(host, '?', len) && !memchr(host, '#', len);
}

static bool path_may_be_shown(const char *path)
{
    return !strchr(path, '?') && !strchr(path, '#');
}

static zend_result from_string(rl_endpoint *ep, zend_string *spec, uint32_t argnum, const char *what)
{
    char err[160], shown[RL_REDACT_BUFLEN];
    int rc = rl_endpoint_parse(ZSTR_VAL(spec), ZSTR_LEN(spec), ep, err, sizeof err);

    if (rc == 0 && ep->host && !host_may_be_shown(ep->host, strlen(ep->host))) {
        snprintf(err, sizeof err, "host contains '@', '?' or '#'; give credentials in the options "
                 "\"username\" and \"password\"");
        rc = -1;
    } else if (rc == 0 && ep->unix_path && !path_may_be_shown(ep->unix_path)) {
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

    memset(ep, 0, sizeof *ep);
    ZEND_HASH_FOREACH_STR_KEY(ht, key) {
        if (key == NULL || (!zend_string_equals_literal(key, "host") && !zend_string_equals_literal(key, "port"))) {
            zend_argument_value_error(argnum, "%smust be an array with only the keys \"host\" and \"port\"", what);
            return FAILURE;
        }
    } ZEND_HASH_FOREACH_END();
    if (host == NULL || Z_TYPE_P(host) != IS_STRING || Z_STRLEN_P(host) == 0) {
        zend_argument_value_error(argnum, "%s[\"host\"] must be a non-empty string", what);
        return FAILURE;
    }
    if (Z_STRVAL_P(host)[0] == '/') { /* ['host' => '/run/redis.sock'] as phpredis allows */
        if (port != NULL) {
            zend_argument_value_error(argnum, "%s[\"port\"] must not be given with a unix socket path as [\"host\"]", what);
            return FAILURE;
        }
        return from_string(ep, Z_STR_P(host), argnum, what);
    }
    if (port != NULL && (Z_TYPE_P(port) != IS_LONG || Z_LVAL_P(port) < 1 || Z_LVAL_P(port) > 65535)) {
        zend_argument_value_error(argnum, "%s[\"port\"] must be an int from 1 to 65535", what);
        return FAILURE;
    }
    if (memchr(Z_STRVAL_P(host), '/', Z_STRLEN_P(host)) || memchr(Z_STRVAL_P(host), '[', Z_STRLEN_P(host))
        || memchr(Z_STRVAL_P(host), ' ', Z_STRLEN_P(host)) || memchr(Z_STRVAL_P(host), '\0', Z_STRLEN_P(host))
        || !host_may_be_shown(Z_STRVAL_P(host), Z_STRLEN_P(host))) {
        zend_argument_value_error(argnum, "%s[\"host\"] must be a host name or address", what);
        return FAILURE;
    }
    if (memchr(Z_STRVAL_P(host), ':', Z_STRLEN_P(host))) { /* only an IPv6 address, written bare here */
        struct in6_addr a6;
        if (inet_pton(AF_INET6, Z_STRVAL_P(host), &a6) != 1) {
            zend_argument_value_error(argnum, "%s[\"host\"] must be a host name or address, without a port", what);
            return FAILURE;
        }
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
    ZVAL_UNDEF(&port); ZVAL_UNDEF(&db); ZVAL_UNDEF(&auth);
    if (call_method(redis, "getHost", &host) == FAILURE || Z_TYPE(host) != IS_STRING || Z_STRLEN(host) == 0
        || call_method(redis, "getPort", &port) == FAILURE
        || call_method(redis, "getDbNum", &db) == FAILURE
        || call_method(redis, "getAuth", &auth) == FAILURE) {
        if (!EG(exception)) {
            zend_argument_value_error(argnum, "%smust be a connected Redis object", what);
        }
        goto done;
    }
    if (Z_STRVAL(host)[0] == '/') {
        rl_endpoint_set_str(&ep->unix_path, Z_STRVAL(host), Z_STRLEN(host));
    } else {
        rl_endpoint_set_str(&ep->host, Z_STRVAL(host), Z_STRLEN(host));
        ep->port = Z_TYPE(port) == IS_LONG && Z_LVAL(port) > 0 ? (int)Z_LVAL(port) : RL_DEFAULT_PORT;
    }
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
    ok = SUCCESS;
done:
    zval_ptr_dtor(&host);
    zval_ptr_dtor(&port);
    zval_ptr_dtor(&db);
    zval_ptr_dtor(&auth);
    return ok;
}

/* A URL's user-info or database and the same option given differently. */
static zend_result conflict(uint32_t argnum, const char *what, const char *part, const rl_settings *s,
                            const char *option)
{
    zend_argument_value_error(argnum, "%ssets %s in its URL, and Argument #%u ($options) sets another in option "
                              "\"%s\": give it once", what, part, s->argnum, option);
    return FAILURE;
}

/* The options' credentials and database on top of the address's own. */
static zend_result apply_options(rl_endpoint *ep, const rl_settings *s, uint32_t argnum, const char *what)
{
    if (s->username) {
        if ((ep->from_address & RL_EP_USERNAME) && !zend_string_equals_cstr(s->username, ep->username, strlen(ep->username))) {
            return conflict(argnum, what, "a user name", s, "username");
        }
        rl_endpoint_set_str(&ep->username, ZSTR_VAL(s->username), ZSTR_LEN(s->username));
    }
    if (s->password) {
        if ((ep->from_address & RL_EP_PASSWORD) && !zend_string_equals_cstr(s->password, ep->password, strlen(ep->password))) {
            return conflict(argnum, what, "a password", s, "password");
        }
        rl_endpoint_set_str(&ep->password, ZSTR_VAL(s->password), ZSTR_LEN(s->password));
    }
    if (s->database >= 0) {
        if ((ep->from_address & RL_EP_DATABASE) && ep->database != (long)s->database) {
            return conflict(argnum, what, "a database", s, "database");
        }
        ep->database = (long)s->database;
    }
    return SUCCESS;
}

zend_result rl_endpoint_from_zval(rl_endpoint *ep, zval *server, const rl_settings *s,
                                  uint32_t argnum, const char *what)
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
        zend_argument_value_error(argnum, "%sis not a TLS address (tls://host:port, rediss://... or valkeys://...), but "
                                  "Argument #%u ($options) has option \"tls\"", what, s->argnum);
        rl_endpoint_clear(ep);
        return FAILURE;
    }
    if (apply_options(ep, s, argnum, what) == FAILURE) {
        rl_endpoint_clear(ep);
        return FAILURE;
    }
    return SUCCESS;
}
