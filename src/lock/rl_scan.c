#include "rl_scan.h"
#include "../base/rl_status.h"
#include "../topology/rl_slots.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Scans the master key (a hash tag; "{}" on a node of one master) routes
 * to, to its end or until enough names were found. */
static int scan_master(const rl_scan *s, const char *key, size_t key_len, rl_vote *vote)
{
    char cursor[24] = "0", after[48] = "";
    rl_conn *asked = NULL;
    long calls = 0;
    do {
        rl_lock_op op = {.kind = RL_OP_SCAN,
                         .key = key,
                         .key_len = key_len,
                         .cursor = cursor,
                         .match = s->match,
                         .after = after,
                         .prefix = s->prefix,
                         .name_at = s->prefix_len,
                         .on_key = s->on_name,
                         .on_key_ctx = s->on_name_ctx};
        const char *text, *sp;
        s->run(s->ctx, &op, vote);
        if (vote->err.code != RL_OK) {
            return vote->err.code;
        }
        text = vote->result.text;
        if (asked != NULL && vote->conn != asked) {
            /* another node answered (a failover): its cursor means nothing here */
            snprintf(cursor, sizeof cursor, "0");
            after[0] = '\0';
        } else { /* "CURSOR" or "CURSOR AFTER": the page goes on after that key */
            sp = strchr(text, ' ');
            snprintf(cursor, sizeof cursor, "%.*s", sp != NULL ? (int)(sp - text) : (int)strlen(text), text);
            snprintf(after, sizeof after, "%s", sp != NULL ? sp + 1 : "");
        }
        asked = vote->conn;
    } while ((strcmp(cursor, "0") != 0 || after[0] != '\0') && ++calls < RL_SCAN_MAX_CALLS
             && !s->enough(s->on_name_ctx));
    return RL_OK;
}

int rl_scan_run(const rl_scan *s, rl_vote *failed)
{
    unsigned slots[RL_SCAN_MAX_MASTERS];
    size_t m, nm = 1;
    int rc = RL_OK;

    if (s->masters != NULL) {
        rl_error err = {0};
        if ((nm = s->masters(s->ctx, slots, RL_SCAN_MAX_MASTERS, &err)) == 0) {
            rl_vote_set_error(failed, &err);
            return err.code; /* failed->conn is the caller's */
        }
    }
    for (m = 0; m < nm && rc == RL_OK; m++) {
        /* a master of a Cluster by a key of its slot: "{T}" is T's slot */
        char tag[8] = {'{'};
        size_t tl = s->masters != NULL ? rl_slot_tag(slots[m], tag + 1) : 0;
        tag[tl + 1] = '}';
        rc = scan_master(s, tag, tl + 2, failed);
    }
    return rc;
}

char *rl_scan_match(const char *prefix, size_t prefix_len, const char *pattern, size_t pattern_len)
{
    char *m = malloc(2 * prefix_len + pattern_len + 1), *at = m;
    size_t i;
    if (m == NULL) {
        return NULL;
    }
    for (i = 0; i < prefix_len; i++) {
        char c = prefix[i];
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
            *at++ = '\\';
        }
        *at++ = c;
    }
    memcpy(at, pattern, pattern_len);
    at[pattern_len] = '\0';
    return m;
}

typedef struct node_ctx {
    rl_node *n;
    const rl_timeouts *t;
} node_ctx;

static void node_run(void *ctx, const rl_lock_op *op, rl_vote *vote)
{
    node_ctx *nc = ctx;
    rl_op e = rl_lock_eop(op);
    memset(vote, 0, sizeof *vote);
    rl_nodes_run(&nc->n, 1, &e, vote, 1, 0, nc->t, nc->t);
}

static size_t node_masters(void *ctx, unsigned *slots, size_t max, rl_error *err)
{
    node_ctx *nc = ctx;
    return nc->n->ops->masters(nc->n, slots, max, nc->t, err);
}

int rl_scan_node(rl_node *n, rl_scan *s, const rl_timeouts *t, rl_vote *failed)
{
    node_ctx nc = {.n = n, .t = t};
    int rc;
    s->run = node_run;
    s->masters = n->ops->masters != NULL ? node_masters : NULL;
    s->ctx = &nc;
    rc = rl_scan_run(s, failed);
    if (rc != RL_OK && failed->conn == NULL) {
        failed->conn = n->conn; /* the masters could not be had: the node's name */
    }
    return rc;
}
