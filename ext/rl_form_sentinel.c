#include "rl_form_sentinel.h"
#include "rl_form_address.h"
#include "php_redislock.h"
#include "rl_pool.h"
#include "zend_exceptions.h"
#include "ext/standard/md5.h"
#include "ext/hash/php_hash.h"
#include "ext/hash/php_hash_sha.h"
#include "src/base/rl_status.h"
#include "rl_class_errors.h"
#include "src/topology/rl_node_sentinel.h"

bool rl_sentinel_is_form(zval *server)
{
    ZVAL_DEREF(server);
    return Z_TYPE_P(server) == IS_ARRAY
           && (zend_hash_str_exists(Z_ARRVAL_P(server), "sentinels", 9)
               || zend_hash_str_exists(Z_ARRVAL_P(server), "service", 7));
}

static zend_result opt_string(zval *v, zend_string **out, uint32_t argnum, const char *what, const char *key)
{
    ZVAL_DEREF(v);
    if (Z_TYPE_P(v) == IS_NULL) {
        *out = NULL;
        return SUCCESS;
    }
    if (Z_TYPE_P(v) != IS_STRING) {
        zend_argument_type_error(argnum, "%s[\"%s\"] must be of type ?string, %s given", what, key,
                                 zend_zval_type_name(v));
        return FAILURE;
    }
    *out = Z_STR_P(v);
    return SUCCESS;
}

/* sentinel_username / sentinel_password on top of a sentinel's address; a
 * URL that sets another is refused, as for the master's options */
static zend_result sentinel_credentials(rl_endpoint *ep, zend_string *user, zend_string *pass, uint32_t argnum,
                                        const char *w, const char *shown)
{
    if (user) {
        if ((ep->from_address & RL_EP_USERNAME) && !zend_string_equals_cstr(user, ep->username, strlen(ep->username))) {
            zend_argument_value_error(argnum,
                                      "%ssets a user name in its URL, and %s[\"sentinel_username\"] sets "
                                      "another: give it once",
                                      w, shown);
            return FAILURE;
        }
        rl_endpoint_set_str(&ep->username, ZSTR_VAL(user), ZSTR_LEN(user));
    }
    if (pass) {
        if ((ep->from_address & RL_EP_PASSWORD) && !zend_string_equals_cstr(pass, ep->password, strlen(ep->password))) {
            zend_argument_value_error(argnum,
                                      "%ssets a password in its URL, and %s[\"sentinel_password\"] sets "
                                      "another: give it once",
                                      w, shown);
            return FAILURE;
        }
        rl_endpoint_set_str(&ep->password, ZSTR_VAL(pass), ZSTR_LEN(pass));
    }
    return SUCCESS;
}

/* Hex SHA-256 of every sentinel's user and password as they will log in
 * (a URL's own or the group's): the master's address another object found
 * is used only by an object that would log in to the sentinels alike.
 * Each field goes in with its length, a missing one as a marker. */
static void credentials_digest(const rl_endpoint *eps, size_t n, char hex[65])
{
    PHP_SHA256_CTX ctx;
    unsigned char digest[32];
    size_t i, f;
    PHP_SHA256Init(&ctx);
    for (i = 0; i < n; i++) {
        const char *field[2] = {eps[i].username, eps[i].password};
        for (f = 0; f < 2; f++) {
            uint64_t len = field[f] ? (uint64_t)strlen(field[f]) : UINT64_MAX;
            PHP_SHA256Update(&ctx, (const unsigned char *)&len, sizeof len);
            if (field[f]) {
                PHP_SHA256Update(&ctx, (const unsigned char *)field[f], strlen(field[f]));
            }
        }
    }
    PHP_SHA256Final(digest, &ctx);
    make_digest_ex(hex, digest, 32);
}

/* The group's keys, checked: *sentinels a non-empty list, *service a
 * non-empty string, the sentinels' credentials when given. */
static zend_result group_keys(HashTable *ht, zval **sentinels, zval **service, zend_string **s_user,
                              zend_string **s_pass, uint32_t argnum, const char *shown)
{
    zend_string *key;
    zval *v;

    ZEND_HASH_FOREACH_STR_KEY(ht, key) {
        if (key == NULL
            || !(zend_string_equals_literal(key, "sentinels") || zend_string_equals_literal(key, "service")
                 || zend_string_equals_literal(key, "sentinel_username")
                 || zend_string_equals_literal(key, "sentinel_password"))) {
            zend_argument_value_error(argnum,
                                      "%smust be a sentinel group with only the keys \"sentinels\", "
                                      "\"service\", \"sentinel_username\" and \"sentinel_password\"",
                                      shown);
            return FAILURE;
        }
    }
    ZEND_HASH_FOREACH_END();
    *sentinels = zend_hash_str_find_deref(ht, "sentinels", 9);
    *service = zend_hash_str_find_deref(ht, "service", 7);
    if (*sentinels == NULL || Z_TYPE_P(*sentinels) != IS_ARRAY || zend_hash_num_elements(Z_ARRVAL_P(*sentinels)) == 0
        || !zend_array_is_list(Z_ARRVAL_P(*sentinels))) {
        zend_argument_value_error(argnum, "%s[\"sentinels\"] must be a non-empty list of server addresses", shown);
        return FAILURE;
    }
    if (*service == NULL || Z_TYPE_P(*service) != IS_STRING || Z_STRLEN_P(*service) == 0
        || memchr(Z_STRVAL_P(*service), '\0', Z_STRLEN_P(*service))) {
        zend_argument_value_error(argnum, "%s[\"service\"] must be a non-empty string", shown);
        return FAILURE;
    }
    if ((v = zend_hash_str_find(ht, "sentinel_username", 17)) != NULL
        && opt_string(v, s_user, argnum, shown, "sentinel_username") == FAILURE) {
        return FAILURE;
    }
    if ((v = zend_hash_str_find(ht, "sentinel_password", 17)) != NULL
        && opt_string(v, s_pass, argnum, shown, "sentinel_password") == FAILURE) {
        return FAILURE;
    }
    return SUCCESS;
}

/* Sentinel i's address, with the sentinels' credentials, never the master's. */
static zend_result sentinel_of(rl_endpoint *ep, zval *one, const rl_settings *s, zend_string *s_user,
                               zend_string *s_pass, uint32_t argnum, const char *w, const char *shown)
{
    rl_settings ss = *s;
    ss.username = NULL;
    ss.password = NULL;
    ss.database = -1;
    if (rl_sentinel_is_form(one)) {
        zend_argument_value_error(argnum, "%smust be a server address, not a sentinel group", w);
        return FAILURE;
    }
    if (rl_endpoint_from_zval(ep, one, &ss, argnum, w) == FAILURE) {
        return FAILURE;
    }
    if (sentinel_credentials(ep, s_user, s_pass, argnum, w, shown) == FAILURE) {
        rl_endpoint_clear(ep);
        return FAILURE;
    }
    if (ep->database != 0) {
        zend_argument_value_error(argnum, "%smust not select a database: sentinels have none", w);
        rl_endpoint_clear(ep);
        return FAILURE;
    }
    return SUCCESS;
}

rl_node *rl_sentinel_from_zval(zval *server, const rl_settings *s, const rl_conn_source *conns, uint32_t argnum,
                               const char *what)
{
    zval *sentinels, *service;
    zend_string *s_user = NULL, *s_pass = NULL;
    rl_endpoint *eps, tpl = {0};
    rl_sentinel_spec spec;
    rl_node *node = NULL;
    char shown[64], hex[65];
    size_t i, n, made = 0;

    ZVAL_DEREF(server);
    /* what is "" or "element 2 ": the keys are named after it */
    snprintf(shown, sizeof shown, "%s", what[0] ? what : "");
    if (group_keys(Z_ARRVAL_P(server), &sentinels, &service, &s_user, &s_pass, argnum, shown) == FAILURE) {
        return NULL;
    }
    n = zend_hash_num_elements(Z_ARRVAL_P(sentinels));
    if ((eps = calloc(n, sizeof *eps)) == NULL) {
        return NULL;
    }
    for (i = 0; i < n; i++) {
        char w[96];
        snprintf(w, sizeof w, "%s[\"sentinels\"][%zu] ", shown, i);
        if (sentinel_of(&eps[i], zend_hash_index_find(Z_ARRVAL_P(sentinels), (zend_ulong)i), s, s_user, s_pass, argnum,
                        w, shown)
            == FAILURE) {
            goto done;
        }
        made = i + 1;
    }
    /* the master: the options' user, password and database */
    if ((s->username && rl_endpoint_set_str(&tpl.username, ZSTR_VAL(s->username), ZSTR_LEN(s->username)) != 0)
        || (s->password && rl_endpoint_set_str(&tpl.password, ZSTR_VAL(s->password), ZSTR_LEN(s->password)) != 0)) {
        rl_throw_status(RL_E_NOMEM, "out of memory");
        goto done;
    }
    tpl.database = s->database > 0 ? (long)s->database : 0;
    credentials_digest(eps, n, hex);
    spec = (rl_sentinel_spec){
        .service = Z_STRVAL_P(service),
        .service_len = Z_STRLEN_P(service),
        .sentinels = eps,
        .n = n,
        .master_tpl = &tpl,
        .sentinel_credentials_digest = hex,
    };
    node = rl_sentinel_node_new(&spec, conns, &RLG(topology)); /* NULL: out of memory (the caller throws) */
done:
    rl_endpoints_free(eps, made);
    rl_endpoint_clear(&tpl);
    return node;
}
