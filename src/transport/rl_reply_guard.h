/* A streaming check of what a Redis node sends, run on every byte before
 * hiredis's reader buffers it. hiredis believes a header: "*2147483647"
 * makes it allocate a 2^31-slot array, "$9000000000000" makes it buffer
 * until that many bytes came. The guard refuses such a stream at the
 * header, before anything is buffered, so what one reply may cost is
 * bounded by the limits below and not by what the server claims.
 *
 * It knows RESP2 only (+ - : $ *; we never ask for RESP3), keeps its state
 * across arbitrary chunk boundaries and is stricter than hiredis on every
 * point where they differ: whatever it accepted, hiredis parses without a
 * protocol error. Plain C, no allocation.
 *
 * What leaks, and why: the guard counts the replies a connection owes, it
 * cannot tell which bytes answer them. Bytes a server sends unasked just
 * after a reply, within the 20 ms a fresh socket is reused without the
 * look that costs a poll() (rl_conn.c), are taken for the start of the
 * next reply and judged or refused as such; a socket older than that
 * holding unasked bytes is closed before use (docs/design/connections.md,
 * "Replies are bounded before they are buffered"). */
#ifndef RL_REPLY_GUARD_H
#define RL_REPLY_GUARD_H
#include <stddef.h>
#include <stdint.h>

/* What one reply may be. Lock connections use the defaults below; a
 * connection that needs bigger replies (topology queries such as CLUSTER
 * SLOTS) raises its own copy (rl_conn's `limits`). */
typedef struct rl_reply_limits {
    size_t max_elements; /* elements one array may declare */
    unsigned max_depth;  /* arrays open inside one another (1: flat arrays
                            only); RL_REPLY_DEPTH_CAP at most */
    size_t max_bulk;     /* bytes of one bulk string */
    size_t max_line;     /* bytes of one line without its CRLF: a simple
                            string, an error, an integer or a header */
    size_t max_reply;    /* bytes of one top-level reply on the wire, every
                            header, element and CRLF counted */
} rl_reply_limits;

/* hiredis 0.14's reader refuses arrays nested 9 deep; a larger max_depth
 * is treated as this. */
#define RL_REPLY_DEPTH_CAP 7

/* Defaults for lock connections. Lock replies are tiny: +OK, $-1, :1, :-3,
 * an error line, or a waiter's XREAD of the wake stream: at most 64 entries
 * (COUNT 64) of an id and one field naming a waiter, nested 5 deep
 * ([[stream, [[id, [field, value]]]]]).
 *  - 64 elements per array: XREAD asks for 64 entries at most.
 *  - depth 5: XREAD's; other lock replies nest 1 deep.
 *  - 64 KiB per bulk string and per line: XREAD's reply echoes the lock
 *    key's name, error lines are at most a few hundred bytes.
 *  - 256 KiB per reply: two maximal bulk strings and their headers fit.
 * A reply's cost is thus bounded: the reader buffers at most max_reply
 * bytes of it, and at most max_reply/4 elements (":1\r\n" is the shortest). */
#define RL_REPLY_MAX_ELEMENTS 64
#define RL_REPLY_MAX_DEPTH 5
#define RL_REPLY_MAX_BULK 65536
#define RL_REPLY_MAX_LINE 65536
#define RL_REPLY_MAX_REPLY 262144

#define RL_REPLY_WHY_LEN 96

typedef struct rl_reply_guard {
    const rl_reply_limits *limits; /* not owned; must outlive the guard's use */
    uint64_t expected;             /* top-level replies the stream may still begin */
    uint64_t complete;             /* top-level replies seen whole since the reset */
    /* private: where the scan is */
    int state, type, neg, digits;
    unsigned depth;
    uint64_t num, bulk_left;
    size_t line_len, reply_bytes;
    uint64_t left[RL_REPLY_DEPTH_CAP]; /* elements still to come per open array */
    char why[RL_REPLY_WHY_LEN];        /* the refusal, once refused */
} rl_reply_guard;

/* Fills l with the lock connections' defaults (RL_REPLY_MAX_*). */
void rl_reply_limits_default(rl_reply_limits *l);

/* Starts a guard on a fresh stream that owes nothing, checking against
 * limits (kept by pointer: raising them later takes effect at once). */
void rl_reply_guard_init(rl_reply_guard *g, const rl_reply_limits *limits);

/* A new stream (new socket): forgets what was scanned, owed or refused;
 * keeps the limits. */
void rl_reply_guard_reset(rl_reply_guard *g);

/* n more replies were asked for: the stream may begin n more top-level
 * replies. A byte beginning a reply beyond those is refused. */
void rl_reply_guard_expect(rl_reply_guard *g, unsigned n);

/* Scans the next len bytes of the stream. Returns 0 when all are
 * acceptable so far (a reply may still be incomplete), -1 when the stream
 * is refused: *ok (if not NULL) gets how many leading bytes of buf were
 * acceptable, and err (if not NULL) a short reason without a prefix, e.g.
 * "bulk reply of 9000000000000 bytes (limit 65536)". A refused guard stays
 * refused until reset. */
int rl_reply_guard_scan(rl_reply_guard *g, const char *buf, size_t len, size_t *ok, char *err, size_t errlen);

/* Non-zero when the stream stands between replies: nothing of a reply has
 * been scanned and not completed. */
int rl_reply_guard_idle(const rl_reply_guard *g);

#endif
