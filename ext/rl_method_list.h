/* The methods both classes have, each with one body: X(name, body), the
 * body in rl_method_lock.c, rl_method_many.c or rl_method_inspect.c. The
 * list declares every body, and each class's file makes its PHP_METHOD of
 * each entry, so a method both classes gain is a line here, its body, and
 * its signatures in stubs/redislock.stub.php (what each does: docs/api.md). */
#ifndef RL_METHOD_LIST_H
#define RL_METHOD_LIST_H
#include "php.h"

// clang-format off
#define RL_SHARED_METHODS(X)                                                                        \
    X(lockShared, rl_method_lock_shared)     /* ($resource, $ttl, $wait = 0.0): ?string */          \
    X(unlock, rl_method_unlock)              /* ($resource, $token): bool */                        \
    X(extend, rl_method_extend)              /* ($resource, $token, $ttl): bool */                  \
    X(synchronized, rl_method_synchronized)  /* ($resource, $callback, $ttl, $wait): mixed */       \
    X(once, rl_method_once)                  /* ($resource, $rebuild, $ttl, $wait): int */          \
    X(getValidity, rl_method_validity)       /* ($resource): ms left of a lock held here, else 0 */ \
    X(fencingToken, rl_method_fencing_token) /* ($resource): its fence number, else null */         \
    X(isHeld, rl_method_is_held)             /* ($resource): validity left, not lost */             \
    X(holds, rl_method_holds)                /* ($resource, $token): asks Redis */                  \
    X(isLocked, rl_method_is_locked)         /* ($resource): does anyone hold it, asks Redis */     \
    X(forceUnlock, rl_method_force_unlock)   /* ($resource): releases whoever holds it */           \
    X(lockMany, rl_method_lock_many)         /* ($resources, $ttl, $wait, $token): ?string */       \
    X(unlockMany, rl_method_unlock_many)     /* ($resources, $token): bool, all released */         \
    X(inspect, rl_method_inspect)            /* ($resource): what each node has of it */            \
    X(locks, rl_method_locks)                /* ($pattern = '*', $limit = 1000): names, by SCAN */  \
    X(watch, rl_method_watch)                /* ($resource, $timeout): bool, a release woke one */
// clang-format on

#define RL_DECLARE_METHOD_BODY(name, body) void body(INTERNAL_FUNCTION_PARAMETERS);
RL_SHARED_METHODS(RL_DECLARE_METHOD_BODY)
#undef RL_DECLARE_METHOD_BODY

#endif
