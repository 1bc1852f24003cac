/* Argument checks and method bodies the two classes share. */
#ifndef RL_METHODS_H
#define RL_METHODS_H
#include "rl_object.h"
#include "rl_wait.h"

#define RL_MAX_TTL_MS ((zend_long)1 << 42) /* about 139 years: far from overflow in Redis */

/* v in 1..max, else a ValueError naming argument argnum. */
bool rl_check_positive(zend_long v, uint32_t argnum, zend_long max);

/* Non-empty token, else a ValueError naming argument argnum. */
bool rl_check_token(zend_string *token, uint32_t argnum);

/* lock(): tries per w (see rl_wait.h) and returns the token or null. */
void rl_method_lock(rl_object *o, zend_string *resource, zend_long ttl, rl_wait *w, zval *return_value);

/* unlock($resource, $token), extend($resource, $token, $ttl). */
void rl_method_unlock(INTERNAL_FUNCTION_PARAMETERS);
void rl_method_extend(INTERNAL_FUNCTION_PARAMETERS);

#endif
