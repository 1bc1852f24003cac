/* Redis Sentinel, the plain-C part: what a sentinel's answer about a
 * master means, what ROLE says, and when a master we talk to has stopped
 * being the master. No sockets here: the fan-out asks the sentinels (all
 * at once) and the master; these functions judge the replies. */
#ifndef RL_SENTINEL_H
#define RL_SENTINEL_H
#include <stddef.h>

#define RL_SENTINEL_HOSTLEN 256

/* A master's address as a sentinel gave it. */
typedef struct rl_sentinel_addr {
    char host[RL_SENTINEL_HOSTLEN];
    int port;
} rl_sentinel_addr;

/* Verdicts of the judges below. */
#define RL_SENTINEL_OK 1   /* an answer we can use */
#define RL_SENTINEL_NO 0   /* a clear "no": unknown service, or not a master */
#define RL_SENTINEL_BAD -1 /* an answer of the wrong shape: err says how */

/* Judges the reply (a redisReply *) to SENTINEL get-master-addr-by-name:
 * a 2-element array of bulk strings (a host that passes the one host rule,
 * src/transport/rl_host.h, in 255 bytes; a port 1..65535) is OK and fills
 * *out; nil (the sentinel does not know the service) is NO; anything else
 * is BAD. err gets a message for NO and BAD, without the service name. */
int rl_sentinel_judge_master(const void *reply, rl_sentinel_addr *out, char *err, size_t errlen);

/* Judges the reply to ROLE: OK when its first element is "master"; NO
 * for "slave"/"replica"/"sentinel" (err says which); BAD otherwise. */
int rl_sentinel_judge_role(const void *reply, char *err, size_t errlen);

/* Non-zero when an operation's failure on a sentinel-managed master is a
 * sign that the master may have changed, so that asking the sentinels
 * again is worth it: the connection could not be made or was lost or
 * timed out (status RL_E_CONNECT, RL_E_TIMEOUT, RL_E_IO), or the node
 * refused a write because it is a replica now (RL_E_REPLY with an error
 * starting "READONLY"), or cut our WAIT short as it became one (an error
 * naming UNBLOCKED). */
int rl_sentinel_failover_sign(int status, const char *err);

/* The cache key of a sentinel group: the service and every sentinel's
 * name, each length-prefixed, so no bytes inside a name make two groups
 * meet. Writes at most cap bytes; returns the length it needs (call again
 * with a bigger buffer when that exceeds cap). */
size_t rl_sentinel_cache_key(const char *service, const char *const *sentinels, size_t n, char *buf, size_t cap);

#endif
