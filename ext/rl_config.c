#include "rl_config.h"
#include "php_redislock.h"
#include "rl_observe.h"
#include "zend_exceptions.h"
#include <arpa/inet.h>

static const char *const option_names[] = {
    "prefix", "connect_timeout", "timeout", "username", "password", "database",
    "persistent", "auto_release", "drift_factor", "logger", NULL,
};

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
        zend_argument_value_error(argnum, "option \"database\" must be 0 or greater");
        return FAILURE;
    }
    *out = Z_LVAL_P(v);
    return SUCCESS;
}

static zend_result opt_one(rl_settings *s, const char *name, zval *v, uint32_t argnum)
{
    if (strcmp(name, "prefix") == 0) {
        if (Z_TYPE_P(v) != IS_STRING) {
            return type_error(argnum, name, "string", v);
        }
        zend_string_release(s->prefix);
        s->prefix = zend_string_copy(Z_STR_P(v));
        return SUCCESS;
    }
    if (strcmp(name, "connect_timeout") == 0) {
        return opt_seconds(v, &s->connect_timeout, argnum, name);
    }
    if (strcmp(name, "timeout") == 0) {
        return opt_seconds(v, &s->timeout, argnum, name);
    }
    if (strcmp(name, "username") == 0) {
        return opt_nullable_string(v, &s->username, argnum, name);
    }
    if (strcmp(name, "password") == 0) {
        return opt_nullable_string(v, &s->password, argnum, name);
    }
    if (strcmp(name, "database") == 0) {
        return opt_database(v, &s->database, argnum);
    }
    if (strcmp(name, "persistent") == 0) {
        return opt_bool(v, &s->persistent, argnum, name);
    }
    if (strcmp(name, "auto_release") == 0) {
        return opt_bool(v, &s->auto_release, argnum, name);
    }
    if (strcmp(name, "logger") == 0) {
        if (rl_logger_check(v, argnum) == FAILURE) {
            return FAILURE;
        }
        zval_ptr_dtor(&s->logger);
        ZVAL_COPY(&s->logger, v);
        return SUCCESS;
    }
    /* drift_factor */
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

static bool known_option(const char *name, bool allow_drift)
{
    const char *const *n;
    for (n = option_names; *n; n++) {
        if (strcmp(*n, name) == 0) {
            return allow_drift || strcmp(name, "drift_factor") != 0;
        }
    }
    return false;
}

zend_result rl_settings_parse(rl_settings *s, HashTable *options, uint32_t argnum, bool allow_drift)
{
    zend_string *name;
    zval *v;

    memset(s, 0, sizeof *s);
    s->prefix = zend_string_init("lock:", 5, 0);
    s->connect_timeout = RLG(connect_timeout);
    s->timeout = RLG(timeout);
    s->database = -1;
    s->persistent = RLG(persistent);
    s->auto_release = RLG(auto_release);
    s->drift_factor = 0.01;
    ZVAL_UNDEF(&s->logger);
    if (options == NULL) {
        return SUCCESS;
    }
    ZEND_HASH_FOREACH_STR_KEY_VAL(options, name, v) {
        ZVAL_DEREF(v);
        if (name == NULL) {
            zend_argument_value_error(argnum, "must have option names as keys");
            return FAILURE;
        }
        if (!known_option(ZSTR_VAL(name), allow_drift)) {
            zend_argument_value_error(argnum, "contains unknown option \"%s\"", ZSTR_VAL(name));
            return FAILURE;
        }
        if (opt_one(s, ZSTR_VAL(name), v, argnum) == FAILURE) {
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
    zval_ptr_dtor(&s->logger);
    memset(s, 0, sizeof *s);
}

static zend_result from_string(rl_endpoint *ep, zend_string *spec, uint32_t argnum, const char *what)
{
    char err[160];
    if (rl_endpoint_parse(ZSTR_VAL(spec), ZSTR_LEN(spec), ep, err, sizeof err) != 0) {
        zend_argument_value_error(argnum, "%smust be a valid server address (\"%s\"): %s",
                                  what, ZSTR_VAL(spec), err);
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
        return from_string(ep, Z_STR_P(host), argnum, what);
    }
    if (port != NULL && (Z_TYPE_P(port) != IS_LONG || Z_LVAL_P(port) < 1 || Z_LVAL_P(port) > 65535)) {
        zend_argument_value_error(argnum, "%s[\"port\"] must be an int from 1 to 65535", what);
        return FAILURE;
    }
    if (memchr(Z_STRVAL_P(host), '/', Z_STRLEN_P(host)) || memchr(Z_STRVAL_P(host), '[', Z_STRLEN_P(host))
        || memchr(Z_STRVAL_P(host), ' ', Z_STRLEN_P(host)) || memchr(Z_STRVAL_P(host), '\0', Z_STRLEN_P(host))) {
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
            zend_argument_type_error(argnum, "%smust be of type Redis|string|array, %s given", what,
                                     zend_zval_type_name(server));
            return FAILURE;
        }
        rc = from_redis(ep, Z_OBJ_P(server), argnum, what);
        break;
    }
    default:
        zend_argument_type_error(argnum, "%smust be of type Redis|string|array, %s given", what,
                                 zend_zval_type_name(server));
        return FAILURE;
    }
    if (rc == FAILURE) {
        rl_endpoint_clear(ep);
        return FAILURE;
    }
    if (s->username) {
        rl_endpoint_set_str(&ep->username, ZSTR_VAL(s->username), ZSTR_LEN(s->username));
    }
    if (s->password) {
        rl_endpoint_set_str(&ep->password, ZSTR_VAL(s->password), ZSTR_LEN(s->password));
    }
    if (s->database >= 0) {
        ep->database = (long)s->database;
    }
    return SUCCESS;
}
