/* lockMany() and unlockMany() of both classes (rl_many.c). */
#ifndef RL_MANY_H
#define RL_MANY_H
#include "php.h"

/* lockMany(array $resources, int $ttl, float $wait = 0.0, ?string $token = null): ?string */
void rl_method_lock_many(INTERNAL_FUNCTION_PARAMETERS);

/* unlockMany(array $resources, string $token): bool: true when every one was released */
void rl_method_unlock_many(INTERNAL_FUNCTION_PARAMETERS);

#endif
