/* The listing of locks (locks(), the redislock command's list): every
 * master of a node scanned to its end with the scan script (RL_OP_SCAN,
 * rl_survey.h). A Cluster node is scanned on each of its masters, reached
 * by a hash tag of a slot that master serves; a cursor means nothing on
 * another node, so the scan starts again when another node answers (a
 * failover). The caller gives how to run one op and how to find the
 * masters (rl_scan_node() binds them to a topology node), and collects the
 * names; this file knows no PHP. */
#ifndef RL_SCAN_H
#define RL_SCAN_H
#include <stddef.h>
#include "rl_op.h"
#include "../topology/rl_node.h"

/* SCAN calls one listing makes on a master at most: a server that keeps
 * answering a cursor other than 0 (a hostile one, or a keyspace of about
 * ten million keys) ends the listing there. */
#define RL_SCAN_MAX_CALLS 100000

/* The masters of a cluster one listing scans at most. */
#define RL_SCAN_MAX_MASTERS 64

typedef struct rl_scan {
    /* Runs op (a SCAN routed by op->key) on the node into *vote (cleared
     * first); vote->conn names where it went. */
    void (*run)(void *ctx, const rl_lock_op *op, rl_vote *vote);
    /* A node of several masters: for each, a slot it serves, at most max;
     * 0 with err set when they cannot be had. NULL: one master. */
    size_t (*masters)(void *ctx, unsigned *slots, size_t max, rl_error *err);
    void *ctx;
    const char *match;  /* the MATCH pattern, the prefix's glob characters escaped */
    const char *prefix; /* the lock keys' prefix, prefix_len bytes */
    size_t prefix_len;
    /* Each lock's resource name found (the prefix left out, a long one cut:
     * rl_survey.h). */
    void (*on_name)(void *ctx, const char *name, size_t len);
    /* Non-zero when enough names were found: a master's scan stops after
     * the call that found them. */
    int (*enough)(void *ctx);
    void *on_name_ctx;
} rl_scan;

/* The MATCH pattern of a listing: prefix with SCAN's glob characters
 * (* ? [ ] \) escaped, then pattern as it is; NUL-terminated, malloc'd
 * (NULL when out of memory). */
char *rl_scan_match(const char *prefix, size_t prefix_len, const char *pattern, size_t pattern_len);

/* Scans every master of the node: RL_OK, or the status of the vote that
 * failed (left in *failed; when the masters could not be had, only its
 * error is set). */
int rl_scan_run(const rl_scan *s, rl_vote *failed);

/* rl_scan_run() on a topology node, its ops bounded by t (run, masters
 * and ctx of s are set here). */
int rl_scan_node(rl_node *n, rl_scan *s, const rl_timeouts *t, rl_vote *failed);

#endif
