/* What RedisLock and RedLock objects share: their nodes, settings, and the
 * locks they hold (for re-entrancy and auto-release). */
#ifndef RL_OBJECT_H
#define RL_OBJECT_H
#include "php.h"
#include "php_redislock.h"
#include "rl_form_options.h"
#include "src/lock/rl_op.h"
#include "src/topology/rl_node.h"

typedef struct rl_held {
    zend_string *token;
    zend_long count;        /* re-entrant acquisitions not yet released */
    pid_t pid;              /* a forked child never auto-releases its parent's locks */
    int64_t valid_until_us; /* monotonic: when the lock can no longer be trusted */
    int64_t taken_us;       /* monotonic: when it was taken (the held-time histogram) */
    long long fence;        /* option "fencing": the acquisition's number, else 0 */
    int mode;               /* rl_mode: a lock, a shared lock or a permit */
    uint64_t watch;         /* auto_extend: its watchdog id (0: not watched) */
    bool lost_logged;       /* the watchdog lost it, and the logger was told */
    bool after_wait;        /* taken after waiting: others likely queued behind it, so
                               released by the script (its wake in the same round trip) */
    struct rl_held *next;   /* option reentrant false: the next owner's record of the same key */
} rl_held;

/* Where an object is in its life. Only a READY object has nodes and settings
 * that methods may use; the constructor runs once, from NEW. */
typedef enum rl_state {
    RL_STATE_NEW = 0,      /* made, constructor not called */
    RL_STATE_CONSTRUCTING, /* inside its constructor (user code may run there) */
    RL_STATE_READY,        /* constructed */
    RL_STATE_FAILED,       /* its constructor threw */
} rl_state;

struct rl_object {
    rl_node **nodes; /* a server, a sentinel group or a cluster each (src/topology/rl_node.h) */
    size_t n;
    size_t quorum;   /* n / 2 + 1 */
    bool redlock;    /* validity and drift apply; messages list every node */
    bool persistent; /* the nodes' connections are the pool's; else their own */
    bool auto_release;
    bool reentrant;          /* false: held records per owner (key => chain), no re-entry */
    bool refresh_own;        /* false: lock() naming a token that holds the lock finds it held (SET NX) */
    bool deadlock_detection; /* option deadlock_detection: waits look for cycles */
    bool fencing;            /* acquisitions are numbered (fence counter per key) */
    bool holder_names;       /* fresh tokens name their holder (rl_token_named) */
    bool auto_extend;        /* the watchdog keeps its locks extended */
    int64_t max_hold_us;     /* ... for at most this long (0: no cap) */
    rl_timeouts timeouts;
    zend_string *prefix;
    double drift_factor;
    int min_replicas; /* > 0: WAIT for this many replicas after acquire and extend */
    long long replica_timeout_ms;
    zend_long retry_delay_ms; /* RedLock: pause between tries, randomised in [d/2, d] */
    zend_long retry_count;    /* RedLock: tries in all when lock() is given no wait */
    zval logger;              /* UNDEF, or the logger option */
    HashTable *evict_pending; /* NULL, or node => policy: nodes found able to evict lock keys
                                 during a call, reported when it returns (rl_object_after_call) */
    zval on_lost;             /* UNDEF (null), 'throw', or a callable: the on_lost option (ext/rl_object_on_lost.c) */
    HashTable held;           /* key => rl_held * */
    uint32_t held_adds;       /* records added since the last sweep of expired ones */
    uint32_t held_kept;       /* keys the last sweep left */
    rl_object *prev, *next;   /* the request's live list, for RSHUTDOWN (and on_lost: its locks are found there) */
    bool live;
    uint8_t state; /* rl_state */
    zend_object std;
};

/* Are o's locks watched: extended (auto_extend), or timed for on_lost? */
static inline bool rl_object_watched(const rl_object *o)
{
    return o->auto_extend || Z_TYPE(o->on_lost) != IS_UNDEF;
}

static inline rl_object *rl_object_from(zend_object *obj)
{
    return (rl_object *)((char *)obj - offsetof(rl_object, std));
}
#define Z_RL_OBJ_P(zv) rl_object_from(Z_OBJ_P(zv))

/* create_object handler of both classes. */
zend_object *rl_object_create(zend_class_entry *ce);

/* free_obj handler: auto-releases what it holds, frees its nodes. */
void rl_object_free(zend_object *obj);


/* Sends an event to o's logger, if it has one. context (an array, or NULL)
 * is consumed. */
void rl_object_log(rl_object *o, const char *level, const char *event, zend_string *key, zval *context);

/* The same for an event about a node (rl_log_node()). */
void rl_object_log_node(rl_object *o, const char *level, const char *event, const char *node, zval *context);

/* After a fan-out, in the PHP thread: the nodes of votes[0..n) whose
 * connection found them able to evict lock keys (rl_conn's evict, asked
 * at connect) are recorded process-wide (stats(), the metrics) and, when
 * no logger was told about them yet and o has one, kept for
 * rl_object_after_call(). Nothing of PHP's is called here. */
void rl_object_evict_note(rl_object *o, const rl_vote *votes, size_t n);

/* At the end of a method of the object this_zv, outside any lock protocol:
 * sends the eviction_policy events kept by rl_object_evict_note(), each
 * node's once per process, to the logger. With an exception pending
 * nothing is sent (a later call finds the nodes again). */
void rl_object_after_call(zval *this_zv);

/* A method whose calls end with rl_object_after_call(): its body follows,
 * as a PHP_METHOD's would. */
#define RL_METHOD_REPORTS(cls, name)                               \
    static void cls##_##name##_body(INTERNAL_FUNCTION_PARAMETERS); \
    PHP_METHOD(cls, name)                                          \
    {                                                              \
        cls##_##name##_body(INTERNAL_FUNCTION_PARAM_PASSTHRU);     \
        rl_object_after_call(ZEND_THIS);                           \
    }                                                              \
    static void cls##_##name##_body(INTERNAL_FUNCTION_PARAMETERS)

/* Sets up the handlers both classes share (MINIT). */
void rl_object_init_handlers(void);

/* Constructor entry, before anything that can run user code: marks o as
 * constructing. false, with an Error thrown, when o's constructor was
 * already called (also when that call is still running). */
bool rl_object_construct_begin(rl_object *o);

/* Constructor exit: o is ready when nothing was thrown, else unusable. */
void rl_object_construct_end(rl_object *o);

/* The object of a method call; NULL, with an Error thrown, when it is not
 * initialized (constructor not called, still running, or failed). */
rl_object *rl_object_ready(zval *this_zv);

/* Takes the settings and connects the servers (argument argnum) to nodes. */
zend_result rl_object_setup(rl_object *o, rl_settings *s, zval *servers, size_t n, uint32_t argnum, bool is_list);

/* The lock key of resource: "prefix . resource", or its escaped form when
 * that reads as one of the library's own keys (src/topology/rl_key_names.h);
 * throws and returns NULL when resource is empty. */
zend_string *rl_object_key(rl_object *o, zend_string *resource, uint32_t argnum);

/* Node i's waiting connection where key lives (made on first use); NULL,
 * with an exception thrown, when out of memory. */
rl_conn *rl_object_wait_conn(rl_object *o, size_t i, const char *key, size_t key_len);

/* A blocking read on every node's waiting connection where op's key lives
 * (rl_nodes_wait()), bounded by t; votes[] has o->n entries. */
size_t rl_object_wait(rl_object *o, const rl_lock_op *op, rl_vote *votes, const rl_timeouts *t);

/* Runs op on every node; votes[] has o->n entries. */
size_t rl_object_run(rl_object *o, const rl_lock_op *op, rl_vote *votes, size_t need, int early);

/* Held-lock bookkeeping. A re-entrant object has one record per key; with
 * option reentrant false, one per key and token (a chain, newest first). */
rl_held *rl_held_find(rl_object *o, zend_string *key); /* the newest */
rl_held *rl_held_find_token(rl_object *o, zend_string *key, zend_string *token);
/* Records token's acquisition of key (replacing token's earlier record, or
 * on a re-entrant object the key's). */
rl_held *rl_held_add(rl_object *o, zend_string *key, zend_string *token, int64_t valid_until_us);
void rl_held_remove(rl_object *o, zend_string *key); /* every owner's */
void rl_held_remove_token(rl_object *o, zend_string *key, zend_string *token);

/* The mode this process holds key in with the token token[0..len), or -1. */
int rl_held_mode_of(rl_object *o, zend_string *key, const char *token, size_t len);

/* Releases every lock o holds that this process took; errors are swallowed
 * (this runs in destructors and at request end). */
void rl_object_release_all(rl_object *o);

/* RSHUTDOWN: release what every live object of the request still holds. */
void rl_release_live_objects(void);

#endif
