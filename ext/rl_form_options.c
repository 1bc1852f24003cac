/* The options array (and the INI defaults under it) to rl_settings: every
 * option listed once with how it is read. Servers are read in rl_form_address.c. */
#include "rl_form_options.h"
#include "src/lock/rl_watchdog.h"
#include "php_redislock.h"
#include "rl_module_observe.h"
#include "rl_object_on_lost.h"
#include "zend_exceptions.h"
#include "src/transport/rl_tls.h"
#include <sys/stat.h>

static zend_result type_error(uint32_t argnum, const char *name, const char *type, zval *v)
{
    zend_argument_type_error(argnum, "option \"%s\" must be of type %s, %s given", name, type, zend_zval_type_name(v));
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

static zend_result set_refresh_own(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    return opt_bool(v, &s->refresh_own, argnum, name);
}

static zend_result set_deadlock_detection(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    return opt_bool(v, &s->deadlock_detection, argnum, name);
}

static zend_result set_fencing(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    return opt_bool(v, &s->fencing, argnum, name);
}

static zend_result set_holder_names(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    return opt_bool(v, &s->holder_names, argnum, name);
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

static zend_result set_on_lost(rl_settings *s, zval *v, uint32_t argnum, const char *name)
{
    (void)name;
    return rl_on_lost_parse(v, &s->on_lost, argnum);
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
                zend_argument_value_error(argnum,
                                          "option \"tls\" key \"%s\" must be a non-empty string without NUL bytes",
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
    }
    ZEND_HASH_FOREACH_END();
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
    {"refresh_own", set_refresh_own, false},
    {"deadlock_detection", set_deadlock_detection, false},
    {"fencing", set_fencing, false},
    {"holder_names", set_holder_names, false},
    {"auto_extend", set_auto_extend, false},
    {"max_hold", set_max_hold, false},
    {"logger", set_logger, false},
    {"on_lost", set_on_lost, false},
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
    s->refresh_own = true;
    s->deadlock_detection = true;
    s->drift_factor = 0.01;
    s->replica_timeout = 0.1;
    s->tls_verify_peer = s->tls_verify_peer_name = true;
    ZVAL_UNDEF(&s->logger);
    ZVAL_UNDEF(&s->on_lost);
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
    }
    ZEND_HASH_FOREACH_END();
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
    zval_ptr_dtor(&s->on_lost);
    memset(s, 0, sizeof *s);
}
