/* The pool of persistent connections, keyed by their exact identity
 * (src/transport/rl_pool_key.h: endpoint, database, user, a SHA-256 of the
 * password, role): two identities never share a logged-in socket. One pool
 * per PHP thread on a thread-safe PHP (never a connection used by two
 * threads), one per process otherwise. Lives from GINIT to GSHUTDOWN (or
 * MSHUTDOWN) in the module globals. */
#ifndef RL_POOL_H
#define RL_POOL_H
#include "php.h"
#include "src/transport/rl_conn.h"
#include "src/topology/rl_node.h"

/* GINIT/GSHUTDOWN: a thread's pool (per thread on a ZTS PHP, else per process). */
void rl_pool_init(HashTable *table);
void rl_pool_shutdown(HashTable *table);

/* The SHA-256 of a password: how a password enters every connection
 * identity (the pool's keys, a Sentinel group's cache key), so that no
 * table keeps a second copy of the secret. */
void rl_password_digest(const char *password, size_t len, unsigned char digest[32]);

/* The pooled connection for ep in role, created closed on first use.
 * NULL when out of memory. */
rl_conn *rl_pool_get(const rl_endpoint *ep, rl_conn_role role);

/* rl_pool_get() as a node's source of connections (rl_own_conns otherwise). */
extern const rl_conn_source rl_pool_conns;

/* End of request: closes pooled connections that still owe replies. */
void rl_pool_settle(void);

/* One array per pooled connection: endpoint, database, role, open, connects,
 * reconnects, dropped. */
void rl_pool_to_array(zval *out);

/* Adds one row per pooled connection to a phpinfo() table. */
void rl_pool_info(void);

#endif
