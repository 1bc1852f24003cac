/* The per-process pool of persistent connections, keyed by their exact
 * identity (src/transport/rl_pool_key.h: endpoint, database, user, a SHA-256 of the
 * password, role): two identities never share a logged-in socket. Lives
 * from MINIT to MSHUTDOWN in the module globals. */
#ifndef RL_POOL_H
#define RL_POOL_H
#include "php.h"
#include "src/transport/rl_conn.h"

void rl_pool_init(void);
void rl_pool_shutdown(void);

/* The pooled connection for ep in role, created closed on first use.
 * NULL when out of memory. */
rl_conn *rl_pool_get(const rl_endpoint *ep, rl_conn_role role);

/* End of request: closes pooled connections that still owe replies. */
void rl_pool_settle(void);

/* One array per pooled connection: endpoint, database, role, open, connects,
 * reconnects, dropped. */
void rl_pool_to_array(zval *out);

/* Adds one row per pooled connection to a phpinfo() table. */
void rl_pool_info(void);

#endif
