/* PHP values to settings and endpoints: the options array (rl_form_options.c)
 * and the server forms ("host:port", "tcp://", "unix://", [host, port], a
 * \Redis object; rl_form_address.c).
 * Each function throws (ValueError/TypeError naming the argument) and
 * returns FAILURE on bad input. */
#ifndef RL_FORM_OPTIONS_H
#define RL_FORM_OPTIONS_H
#include "php.h"
#include "src/transport/rl_endpoint.h"

enum {
    RL_TLS_CAFILE,
    RL_TLS_CAPATH,
    RL_TLS_LOCAL_CERT,
    RL_TLS_LOCAL_PK,
    RL_TLS_PASSPHRASE,
    RL_TLS_PEER_NAME
};

typedef struct rl_settings {
    zend_string *prefix;
    double connect_timeout;
    double timeout;
    zend_string *username; /* NULL: not given */
    zend_string *password; /* NULL: not given */
    zend_long database;    /* -1: not given */
    bool persistent;
    bool auto_release;
    bool reentrant;          /* false: one object serves many owners (no re-entry) */
    bool refresh_own;        /* false: lock() naming a token that holds the lock finds it held */
    bool deadlock_detection; /* waits of lock() and lockMany() look for cycles (rl_object_wait.c) */
    bool fencing;            /* number every acquisition (fencingToken()) */
    bool holder_names;       /* tokens carry host, pid and request (inspect(), the redislock command) */
    bool auto_extend;        /* the watchdog thread keeps locks extended */
    double max_hold;         /* seconds after which it stops; 0: never */
    double drift_factor;
    zend_long min_replicas;  /* 0: off */
    double replica_timeout;  /* seconds */
    zval logger;             /* UNDEF: none */
    zval on_lost;            /* UNDEF: null; 'throw' or a callable */
    bool tls_given;          /* the option "tls" was given */
    zend_string *tls_str[6]; /* RL_TLS_* below; NULL: not given */
    bool tls_verify_peer, tls_verify_peer_name;
    uint32_t argnum; /* the options' argument number, for messages */
} rl_settings;

/* Defaults from INI, then the options array (argument number argnum) on top.
 * allow_drift: RedLock's drift_factor is a known option. */
zend_result rl_settings_parse(rl_settings *s, HashTable *options, uint32_t argnum, bool allow_drift);

void rl_settings_free(rl_settings *s);

#endif
