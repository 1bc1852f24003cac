#include "rl_topology.h"
#include "php_redislock.h"
#include "rl_pool.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"
#include "ext/hash/php_hash.h"
#include "ext/standard/md5.h"
#include "src/base/rl_status.h"
#include "rl_errors.h"
#include "src/topology/rl_sentinel.h"

struct rl_sgroup {
    char *service;
    size_t service_len;
    rl_conn **sentinels;    /* pooled (persistent) or ours */
    size_t ns;
    rl_endpoint master_tpl; /* the master's user, password and database; no address */
    rl_conn *placeholder;   /* never connected: names the group until its master is known */
    rl_conn *master;        /* the master in use (pooled, or ours when not persistent) */
    unsigned generation;    /* counts changes of master */
    char *cache_key;
    size_t cache_key_len;
};

/* RLG(masters): cache key => rl_sentinel_addr * (malloc'd, lives for the process, or the thread on a ZTS PHP) */

static void free_addr(zval *zv)
{
    free(Z_PTR_P(zv));
}

void rl_topology_init(HashTable *table)
{
    zend_hash_init(table, 4, NULL, free_addr, 1);
}

void rl_topology_shutdown(HashTable *table)
{
    zend_hash_destroy(table);
}

bool rl_topology_is_group(zval *server)
{
    ZVAL_DEREF(server);
    return Z_TYPE_P(server) == IS_ARRAY
        && (zend_hash_str_exists(Z_ARRVAL_P(server), "sentinels", 9)
            || zend_hash_str_exists(Z_ARRVAL_P(server), "service", 7));
}

rl_conn *rl_group_placeholder(rl_sgroup *g)
{
    return g->placeholder;
}

int rl_group_same(const rl_sgroup *a, const rl_sgroup *b)
{
    size_t i, j;
    if (a->service_len != b->service_len || memcmp(a->service, b->service, a->service_len) != 0) {
        return 0;
    }
    for (i = 0; i < a->ns; i++) {
        for (j = 0; j < b->ns; j++) {
            if (rl_endpoint_same_node(&a->sentinels[i]->ep, &b->sentinels[j]->ep)) {
                return 1;
            }
        }
    }
    return 0;
}

int rl_group_owns(rl_sgroup *g, rl_conn *c)
{
    return c == g->placeholder || c == g->master;
}

void rl_group_free(rl_sgroup *g, bool persistent)
{
    size_t i;
    if (g == NULL) {
        return;
    }
    for (i = 0; i < g->ns && !persistent; i++) {
        rl_conn_free(g->sentinels[i]);
    }
    if (!persistent && g->master) {
        rl_conn_free(g->master);
    }
    rl_conn_free(g->placeholder);
    rl_endpoint_clear(&g->master_tpl);
    free(g->sentinels);
    free(g->service);
    free(g->cache_key);
    free(g);
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
            zend_argument_value_error(argnum, "%ssets a user name in its URL, and %s[\"sentinel_username\"] sets "
                                      "another: give it once", w, shown);
            return FAILURE;
        }
        rl_endpoint_set_str(&ep->username, ZSTR_VAL(user), ZSTR_LEN(user));
    }
    if (pass) {
        if ((ep->from_address & RL_EP_PASSWORD) && !zend_string_equals_cstr(pass, ep->password, strlen(ep->password))) {
            zend_argument_value_error(argnum, "%ssets a password in its URL, and %s[\"sentinel_password\"] sets "
                                      "another: give it once", w, shown);
            return FAILURE;
        }
        rl_endpoint_set_str(&ep->password, ZSTR_VAL(pass), ZSTR_LEN(pass));
    }
    return SUCCESS;
}

/* hex SHA-256 of a password, "" for none */
static void secret_hash(zend_string *pass, char hex[65])
{
    unsigned char digest[32];
    hex[0] = '\0';
    if (pass == NULL) {
        return;
    }
    rl_password_digest(ZSTR_VAL(pass), ZSTR_LEN(pass), digest);
    make_digest_ex(hex, digest, 32);
}

rl_sgroup *rl_group_new(zval *server, const rl_settings *s, bool persistent, uint32_t argnum, const char *what)
{
    HashTable *ht;
    zval *sentinels, *service, *v;
    zend_string *key, *s_user = NULL, *s_pass = NULL;
    rl_settings ss;
    rl_sgroup *g;
    const char **names = NULL;
    char shown[64], hex[65];
    size_t i, n, need;
    rl_endpoint ph = {0};

    ZVAL_DEREF(server);
    ht = Z_ARRVAL_P(server);
    /* what is "" or "element 2 ": the keys are named after it */
    snprintf(shown, sizeof shown, "%s", what[0] ? what : "");
    ZEND_HASH_FOREACH_STR_KEY(ht, key) {
        if (key == NULL || !(zend_string_equals_literal(key, "sentinels") || zend_string_equals_literal(key, "service")
                             || zend_string_equals_literal(key, "sentinel_username")
                             || zend_string_equals_literal(key, "sentinel_password"))) {
            zend_argument_value_error(argnum, "%smust be a sentinel group with only the keys \"sentinels\", "
                                      "\"service\", \"sentinel_username\" and \"sentinel_password\"", shown);
            return NULL;
        }
    } ZEND_HASH_FOREACH_END();
    sentinels = zend_hash_str_find_deref(ht, "sentinels", 9);
    service = zend_hash_str_find_deref(ht, "service", 7);
    if (sentinels == NULL || Z_TYPE_P(sentinels) != IS_ARRAY || zend_hash_num_elements(Z_ARRVAL_P(sentinels)) == 0
        || !zend_array_is_list(Z_ARRVAL_P(sentinels))) {
        zend_argument_value_error(argnum, "%s[\"sentinels\"] must be a non-empty list of server addresses", shown);
        return NULL;
    }
    if (service == NULL || Z_TYPE_P(service) != IS_STRING || Z_STRLEN_P(service) == 0
        || memchr(Z_STRVAL_P(service), '\0', Z_STRLEN_P(service))) {
        zend_argument_value_error(argnum, "%s[\"service\"] must be a non-empty string", shown);
        return NULL;
    }
    if ((v = zend_hash_str_find(ht, "sentinel_username", 17)) != NULL
        && opt_string(v, &s_user, argnum, shown, "sentinel_username") == FAILURE) {
        return NULL;
    }
    if ((v = zend_hash_str_find(ht, "sentinel_password", 17)) != NULL
        && opt_string(v, &s_pass, argnum, shown, "sentinel_password") == FAILURE) {
        return NULL;
    }

    n = zend_hash_num_elements(Z_ARRVAL_P(sentinels));
    g = calloc(1, sizeof *g);
    if (g == NULL || (g->sentinels = calloc(n, sizeof *g->sentinels)) == NULL
        || (g->service = strndup(Z_STRVAL_P(service), Z_STRLEN_P(service))) == NULL) {
        goto oom;
    }
    g->service_len = Z_STRLEN_P(service);

    /* the sentinels get the sentinel credentials, never the master's */
    ss = *s;
    ss.username = NULL;
    ss.password = NULL;
    ss.database = -1;
    for (i = 0; i < n; i++) {
        char w[96];
        rl_endpoint ep;
        zval *one = zend_hash_index_find(Z_ARRVAL_P(sentinels), (zend_ulong)i);
        snprintf(w, sizeof w, "%s[\"sentinels\"][%zu] ", shown, i);
        if (rl_topology_is_group(one)) {
            zend_argument_value_error(argnum, "%smust be a server address, not a sentinel group", w);
            rl_group_free(g, persistent);
            return NULL;
        }
        if (rl_endpoint_from_zval(&ep, one, &ss, argnum, w) == FAILURE) {
            rl_group_free(g, persistent);
            return NULL;
        }
        if (sentinel_credentials(&ep, s_user, s_pass, argnum, w, shown) == FAILURE) {
            rl_endpoint_clear(&ep);
            rl_group_free(g, persistent);
            return NULL;
        }
        if (ep.database != 0) {
            zend_argument_value_error(argnum, "%smust not select a database: sentinels have none", w);
            rl_endpoint_clear(&ep);
            rl_group_free(g, persistent);
            return NULL;
        }
        g->sentinels[i] = persistent ? rl_pool_get(&ep, RL_ROLE_COMMAND) : rl_conn_new(&ep, RL_ROLE_COMMAND);
        rl_endpoint_clear(&ep);
        if (g->sentinels[i] == NULL) {
            goto oom;
        }
        g->ns = i + 1;
    }

    /* the master: the options' user, password and database */
    if ((s->username && rl_endpoint_set_str(&g->master_tpl.username, ZSTR_VAL(s->username), ZSTR_LEN(s->username)) != 0)
        || (s->password && rl_endpoint_set_str(&g->master_tpl.password, ZSTR_VAL(s->password), ZSTR_LEN(s->password)) != 0)) {
        goto oom;
    }
    g->master_tpl.database = s->database > 0 ? (long)s->database : 0;

    /* a name for messages until the master is known; never connected (an
     * empty host with port 0 is the same node as no real one) */
    ph.host = "";
    ph.port = 0;
    g->placeholder = rl_conn_new(&ph, RL_ROLE_COMMAND);
    if (g->placeholder == NULL) {
        goto oom;
    }
    snprintf(g->placeholder->name, sizeof g->placeholder->name, "sentinel service \"%.200s\"", g->service);

    names = calloc(n + 2, sizeof *names);
    if (names == NULL) {
        goto oom;
    }
    for (i = 0; i < n; i++) {
        names[i] = g->sentinels[i]->name;
    }
    /* the sentinels' credentials are part of the key (the password as its
     * SHA-256): an object with wrong ones must not use a master another
     * object found */
    names[n] = s_user ? ZSTR_VAL(s_user) : "";
    secret_hash(s_pass, hex);
    names[n + 1] = hex;
    need = rl_sentinel_cache_key(g->service, names, n + 2, NULL, 0);
    g->cache_key = malloc(need + 1);
    if (g->cache_key == NULL) {
        goto oom;
    }
    g->cache_key_len = rl_sentinel_cache_key(g->service, names, n + 2, g->cache_key, need + 1);
    free(names);
    return g;
oom:
    free(names);
    rl_group_free(g, persistent);
    rl_throw_status(RL_E_NOMEM, "out of memory");
    return NULL;
}

/* Points node i at the master host:port (the group's connection to it,
 * reused when it is the same node). */
static int point_at(rl_object *o, size_t i, const char *host, int port)
{
    rl_sgroup *g = o->groups[i];
    rl_endpoint ep;
    rl_conn *c;

    if (g->master && g->master->ep.host && g->master->ep.port == port && strcasecmp(g->master->ep.host, host) == 0) {
        o->conns[i] = g->master;
        return 0;
    }
    if (rl_endpoint_copy(&ep, &g->master_tpl) != 0 || rl_endpoint_set_str(&ep.host, host, strlen(host)) != 0) {
        rl_endpoint_clear(&ep);
        return RL_E_NOMEM;
    }
    ep.port = port;
    c = o->persistent ? rl_pool_get(&ep, RL_ROLE_COMMAND) : rl_conn_new(&ep, RL_ROLE_COMMAND);
    if (c != NULL && o->wait_conns) {
        rl_conn *w = o->persistent ? rl_pool_get(&ep, RL_ROLE_WAIT) : rl_conn_new(&ep, RL_ROLE_WAIT);
        if (w == NULL) {
            if (!o->persistent) {
                rl_conn_free(c);
            }
            c = NULL;
        } else {
            if (!o->persistent) {
                rl_conn_free(o->wait_conns[i]);
            }
            o->wait_conns[i] = w;
        }
    }
    rl_endpoint_clear(&ep);
    if (c == NULL) {
        return RL_E_NOMEM;
    }
    if (!o->persistent && g->master) {
        rl_conn_free(g->master);
    }
    c->must_answer = 1;
    g->master = c;
    g->generation++;
    o->conns[i] = c;
    return 0;
}

static void forget(rl_sgroup *g)
{
    zend_hash_str_del(&RLG(masters), g->cache_key, g->cache_key_len);
}

/* Asks every sentinel at once for the master (the first good answer
 * wins), checks it with ROLE, caches it. force: do not use the cache.
 * 0, or a status with the reason in err (node i then points at its
 * placeholder). */
static int resolve(rl_object *o, size_t i, int force, char *err, size_t errlen)
{
    rl_sgroup *g = o->groups[i];
    rl_sentinel_addr *cached = force ? NULL : zend_hash_str_find_ptr(&RLG(masters), g->cache_key, g->cache_key_len);
    rl_op op = {.kind = RL_OP_SENTINEL_MASTER, .key = g->service, .key_len = g->service_len};
    rl_op role = {.kind = RL_OP_ROLE};
    rl_vote stack[8], *votes, check;
    rl_sentinel_addr addr;
    const char *from = NULL;
    size_t j;
    int rc;

    if (cached) {
        rc = point_at(o, i, cached->host, cached->port);
        if (rc != 0) {
            snprintf(err, errlen, "out of memory");
            o->conns[i] = g->placeholder;
        }
        return rc;
    }
    votes = g->ns <= 8 ? stack : ecalloc(g->ns, sizeof *votes);
    for (j = 0; j < g->ns; j++) {
        votes[j].conn = g->sentinels[j];
    }
    rl_fanout(&op, votes, g->ns, 1, 1, &o->timeouts);
    for (j = 0; j < g->ns && from == NULL; j++) {
        if (votes[j].status == RL_OK && votes[j].yes) {
            snprintf(addr.host, sizeof addr.host, "%s", votes[j].err);
            addr.port = (int)votes[j].value;
            from = g->sentinels[j]->name;
        }
    }
    if (from == NULL) {
        smart_str msg = {0};
        const char *sep = "";
        smart_str_append_printf(&msg, "no sentinel knows the master of \"%s\": ", g->service);
        for (j = 0; j < g->ns; j++) {
            smart_str_append_printf(&msg, "%s%s: %s", sep, g->sentinels[j]->name,
                                    votes[j].status == RL_E_SKIPPED ? "no answer" : votes[j].err);
            sep = "; ";
        }
        smart_str_0(&msg);
        if (ZSTR_LEN(msg.s) >= errlen) { /* cut visibly */
            snprintf(err, errlen, "%.*s...", (int)(errlen - 4), ZSTR_VAL(msg.s));
        } else {
            snprintf(err, errlen, "%s", ZSTR_VAL(msg.s));
        }
        smart_str_free(&msg);
        if (votes != stack) {
            efree(votes);
        }
        forget(g);
        o->conns[i] = g->placeholder;
        return RL_E_NO_MASTER;
    }
    if (votes != stack) {
        efree(votes);
    }
    rc = point_at(o, i, addr.host, addr.port);
    if (rc != 0) {
        snprintf(err, errlen, "out of memory");
        o->conns[i] = g->placeholder;
        return rc;
    }
    memset(&check, 0, sizeof check);
    check.conn = o->conns[i];
    rl_fanout(&role, &check, 1, 1, 0, &o->timeouts);
    if (check.status != RL_OK || !check.yes) {
        snprintf(err, errlen, "sentinel %s names %s as the master of \"%s\", but %s", from, o->conns[i]->name,
                 g->service, check.err);
        forget(g);
        o->conns[i] = g->placeholder;
        return check.status == RL_OK ? RL_E_NO_MASTER : check.status;
    }
    cached = malloc(sizeof *cached);
    if (cached != NULL) {
        *cached = addr;
        zend_hash_str_update_ptr(&RLG(masters), g->cache_key, g->cache_key_len, cached);
    }
    return 0;
}

static void vote_failed(rl_vote *v, rl_conn *c, int status, const char *err)
{
    memset(v, 0, sizeof *v);
    v->conn = c;
    v->status = status;
    snprintf(v->err, sizeof v->err, "%s", err);
}

size_t rl_topology_run(rl_object *o, const rl_op *op, rl_vote *votes, size_t need, int early,
                       const rl_timeouts *t)
{
    rl_vote stack[8], *sub = o->n <= 8 ? stack : ecalloc(o->n, sizeof *sub);
    int fstack[8], *failed = o->n <= 8 ? fstack : ecalloc(o->n, sizeof *failed);
    char err[RL_ERRLEN];
    size_t i, k = 0, yes = 0;
    /* only commands that act on a lock move to a new master; a waiter's
     * own queue entries went to the old one */
    int movable = op->kind != RL_OP_LEAVE && op->kind != RL_OP_WAKE_WAIT;

    for (i = 0; i < o->n; i++) {
        rl_sgroup *g = o->groups[i];
        failed[i] = 0;
        if (g && o->conns[i] == g->placeholder) {
            failed[i] = resolve(o, i, 0, err, sizeof err);
            if (failed[i]) {
                vote_failed(&votes[i], g->placeholder, failed[i], err);
                continue;
            }
        }
        memset(&sub[k], 0, sizeof sub[k]);
        sub[k++].conn = o->conns[i];
    }
    if (k > 0) {
        rl_fanout(op, sub, k, need, early, t);
    }
    for (i = 0, k = 0; i < o->n; i++) {
        if (!failed[i]) {
            votes[i] = sub[k++];
        }
    }
    for (i = 0; i < o->n && movable; i++) {
        rl_sgroup *g = o->groups[i];
        unsigned old = g ? g->generation : 0;
        rl_op again;
        int rc;

        if (g == NULL || failed[i] || !rl_sentinel_failover_sign(votes[i].status, votes[i].err)) {
            continue;
        }
        /* the master may have changed: ask the sentinels again; a new
         * master gets the command once more, in its safe-to-repeat form
         * (a lock the old master replicated before it fell counts as ours) */
        rc = resolve(o, i, 1, err, sizeof err);
        if (rc != 0) {
            vote_failed(&votes[i], g->placeholder, rc, err);
            continue;
        }
        if (g->generation == old) {
            continue; /* the sentinels still name it: its failure stands */
        }
        again = *op;
        again.repeat = 1;
        memset(&votes[i], 0, sizeof votes[i]);
        votes[i].conn = o->conns[i];
        rl_fanout(&again, &votes[i], 1, 1, 0, t);
    }
    for (i = 0; i < o->n; i++) {
        yes += votes[i].status == RL_OK && votes[i].yes;
    }
    if (sub != stack) {
        efree(sub);
    }
    if (failed != fstack) {
        efree(failed);
    }
    return yes;
}
