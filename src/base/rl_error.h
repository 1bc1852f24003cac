/* The error value of the plain-C core: a status (rl_status.h, the
 * exception's getCode()) and its message, without the node's name (the
 * caller adds it). A message longer than the value holds is cut visibly:
 * it ends in "...". */
#ifndef RL_ERROR_H
#define RL_ERROR_H
#include <stddef.h>

#define RL_ERRLEN 384

typedef struct rl_error {
    int code; /* RL_OK, or an rl_status */
    char msg[RL_ERRLEN];
    int cut; /* the message was cut: later appends are dropped */
} rl_error;

/* Sets code and the message fmt; returns code. */
int rl_error_set(rl_error *e, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Appends fmt to the message (which rl_error_set began). */
void rl_error_append(rl_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
