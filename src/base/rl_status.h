/* Status codes of the plain-C core. They are also the exceptions' getCode()
 * (ext/rl_class_errors.c maps each to one class), documented in docs/errors.md as
 * stable: never renumber one, only add. */
#ifndef RL_STATUS_H
#define RL_STATUS_H

enum rl_status {
    RL_OK = 0,
    RL_E_CONNECT = 1,  /* could not connect: refused, unreachable, resolve failure */
    RL_E_TIMEOUT = 2,  /* connect or reply did not come within its timeout */
    RL_E_AUTH = 3,     /* AUTH refused, or the server wants AUTH we did not give */
    RL_E_IO = 4,       /* connection lost while talking to the server */
    RL_E_PROTOCOL = 5, /* a reply we cannot parse, did not expect, or above the reply limits */
    RL_E_REPLY = 6,    /* the server answered with an error (OOM, READONLY, ...) */
    RL_E_NOMEM = 7,
    RL_E_SKIPPED = 8,            /* node not asked: decision already made without it (never thrown) */
    RL_E_NODES = 9,              /* several nodes failed, in different ways, not all unreachable */
    RL_E_NOT_ACQUIRED = 10,      /* synchronized(): the lock was not had within the wait */
    RL_E_RANDOM = 11,            /* the kernel gave no random bytes for a token */
    RL_E_TLS = 12,               /* TLS handshake or session failed (certificate, peer name, alert) */
    RL_E_REPLICAS = 13,          /* fewer replicas than min_replicas acknowledged the lock */
    RL_E_NO_MASTER = 14,         /* Sentinel: no sentinel could name a master that ROLE confirms */
    RL_E_NO_SLOT_MAP = 15,       /* Cluster: no node answered with a slot map covering every slot */
    RL_E_REDIRECTS = 16,         /* Cluster: still redirected (MOVED/ASK/TRYAGAIN/CLUSTERDOWN) after the call's bound */
    RL_E_KIND = 17,              /* the object holds the resource as another kind (lock, shared lock, permit) */
    RL_E_NODES_UNREACHABLE = 18, /* several nodes failed, in different ways, each unreachable */
    RL_E_DEADLOCK = 19,          /* the waiter would wait for itself: a cycle of waiters and holders */
    RL_E_LOST = 20               /* option on_lost 'throw': a lock held is known lost (expired, gone, no quorum) */
};

#define RL_STATUS_MAX RL_E_LOST

/* The exception a status is thrown as: the one map (ext/rl_class_errors.c gives
 * each its class; docs/errors.md's table is checked against it in CI). */
typedef enum rl_status_class {
    RL_CLASS_LOCK,       /* RedisLockException */
    RL_CLASS_CONNECTION, /* RedisLockConnectionException: the node could not be talked to */
    RL_CLASS_TIMEOUT,    /* RedisLockTimeoutException: synchronized() not acquired in time */
    RL_CLASS_DEADLOCK,   /* RedisLockDeadlockException: a wait that closes a cycle */
    RL_CLASS_LOST        /* RedisLockLostException: a lock held was lost (option on_lost) */
} rl_status_class;

rl_status_class rl_status_class_of(int status);

/* Short lowercase name of a status, for messages and logs. */
const char *rl_status_name(int status);

/* Non-zero when the status means the node could not be talked to at all. */
int rl_status_is_connection(int status);

#endif
