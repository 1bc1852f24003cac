/* The identity of a pooled connection, as an exact byte string: every
 * setting that changes where a socket goes or what it is logged in as.
 * Each field is length-prefixed, so no two identities share a key whatever
 * bytes their names hold, and there is no length limit. Later settings that
 * change a connection's identity (TLS settings, cluster) are fields here too. */
#ifndef RL_POOL_KEY_H
#define RL_POOL_KEY_H
#include <stddef.h>
#include "rl_conn.h"

/* Builds the key of (ep, role) into a malloc'd buffer (*out, *out_len).
 * The password is not in it: secret/secret_len is what stands for it (a
 * digest of the password, computed by the caller; NULL when there is no
 * password), compared as exact bytes like every other field.
 * For one role, two endpoints get the same key exactly when
 * rl_endpoint_same_connection() says they are the same connection (given
 * that equal secrets stand for equal passwords); unit_pool_key.c checks
 * the two agree.
 * Returns 0, or -1 when out of memory. */
int rl_pool_key(const rl_endpoint *ep, rl_conn_role role, const unsigned char *secret, size_t secret_len, char **out,
                size_t *out_len);

#endif
