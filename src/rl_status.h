/* Status codes of the plain-C core; ext/ maps each to one exception class. */
#ifndef RL_STATUS_H
#define RL_STATUS_H

enum rl_status {
    RL_OK = 0,
    RL_E_CONNECT,   /* could not connect: refused, unreachable, resolve failure */
    RL_E_TIMEOUT,   /* connect or reply did not come within its timeout */
    RL_E_AUTH,      /* AUTH refused, or the server wants AUTH we did not give */
    RL_E_IO,        /* connection lost while talking to the server */
    RL_E_PROTOCOL,  /* a reply we cannot parse or did not expect */
    RL_E_REPLY,     /* the server answered with an error (OOM, READONLY, ...) */
    RL_E_NOMEM,
    RL_E_SKIPPED    /* node not asked: decision already made without it */
};

/* Short lowercase name of a status, for messages and logs. */
const char *rl_status_name(int status);

/* Non-zero when the status means the node could not be talked to at all. */
int rl_status_is_connection(int status);

#endif
