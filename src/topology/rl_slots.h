/* Redis Cluster, the plain-C part: which slot a key hashes to, how keys
 * derived from a lock key stay in its slot, what a MOVED/ASK redirection
 * says, and the map of which master serves which slot, as CLUSTER SLOTS
 * tells it. No sockets here: the caller asks the nodes; these functions
 * judge the replies. Keys are binary: every key comes with its length. */
#ifndef RL_SLOTS_H
#define RL_SLOTS_H
#include <stddef.h>
#include <stdint.h>

#define RL_SLOT_COUNT 16384     /* slots of a cluster: 0..16383 */
#define RL_SLOT_UNMAPPED 0xFFFF /* owner of a slot no master serves */
#define RL_SLOT_MAX_NODES 1024  /* masters one map may hold */
#define RL_SLOT_HOSTLEN 256     /* a host's bytes (255 at most) and its NUL */

/* CRC16/XMODEM (poly 0x1021, init 0, no reflection, no final xor) of buf:
 * the checksum Redis Cluster hashes keys with. */
uint16_t rl_crc16(const char *buf, size_t len);

/* The slot of a key (0..16383): crc16 of the key mod 16384, or of its hash
 * tag only when it has one: the bytes between its first '{' and the first
 * '}' after that, when there is at least one byte between them. */
unsigned rl_key_slot(const char *key, size_t len);

/* The prefix keys derived from a lock key start with, so that this prefix
 * followed by any suffix without '{' or '}' lands in the key's slot:
 *  - the key itself when it has a hash tag;
 *  - "{" key "}" when it has none and holds no '}' (and is not empty);
 *  - otherwise (no tag but a '}', as in "a}b" or "x{}y}", or the empty
 *    key) "{T}" key, T being the first string of 1 to 4 bytes of [0-9a-z]
 *    (shorter first, then in the order of "0-9a-z") with
 *    crc16(T) % 16384 == rl_key_slot(key). Every slot has one (the unit
 *    tests check). The search is deterministic and costs at most 60,822
 *    candidates of one table-driven CRC step each (about 12,500 on
 *    average over the slots): some 15 us on average, 0.3 ms at worst, on
 *    a current x86-64 at -O2. Only keys of this third kind pay it; a
 *    caller building several derived keys can compute the base once.
 * Like snprintf: writes at most cap - 1 bytes of it and a NUL when cap > 0
 * (out may be NULL when cap is 0) and returns its whole length, without
 * the NUL. The prefix may hold NUL bytes of the key: use the length. */
size_t rl_key_base(const char *key, size_t len, char *out, size_t cap);

/* The first string T of 1 to 4 bytes of [0-9a-z] (shorter first, then in
 * the order of "0-9a-z") with crc16(T) % 16384 == slot, written to t (no
 * NUL); returns its length, 0 for a slot out of range. The first call
 * makes a table of every slot's tag (about 1 ms, once per process). */
size_t rl_slot_tag(unsigned slot, char t[4]);

/* Whether t (n bytes) has a slot tag's shape: 1 to 4 bytes of [0-9a-z]. */
int rl_slot_tag_shaped(const char *t, size_t n);

/* The name of a key derived from a lock key (its queue, reservation or
 * wake stream: letter 'q', 'r', 'w'), in the lock key's slot and starting
 * with the lock key itself where it can, so that ACL key patterns such as
 * "~lock:*" cover it:
 *  - a key with a hash tag: key "\0" letter;
 *  - a key without '{': key "\0" letter "{T}", T = rl_slot_tag(slot of key);
 *  - a key with a '{' but no hash tag: rl_key_base(key) "\0" letter;
 *  - a key with a hash tag that is itself another key's base form
 *    (rl_key_is_base(), as "{a{}" is "a{"'s): key "\0" letter "{}", so
 *    that the two never share a derived key.
 * No two (key, letter) give the same name (rl_key_names.h reads one back).
 * Like snprintf: writes at most cap - 1 bytes and a NUL when cap > 0
 * (out may be NULL when cap is 0); returns the whole length. */
size_t rl_key_derived(const char *key, size_t len, char letter, char *out, size_t cap);

/* Whether key has a hash tag (rl_key_slot()'s rule). */
int rl_key_has_tag(const char *key, size_t len);

/* Whether key is rl_key_base() of a key with a '{' but no hash tag (the
 * keys rl_key_derived() gives the base form): "{" K "}" with K holding a
 * '{' and no '}', or "{T}" K with K holding both but no tag and T its
 * slot's tag. *inner_at: where K starts in key. */
int rl_key_is_base(const char *key, size_t len, size_t *inner_at);

/* Where rl_key_derived() puts the letter: the keys of one lock differ only
 * there, so one derivation serves them all. */
size_t rl_key_derived_letter_at(const char *key, size_t len);

/* Verdicts of rl_cluster_redirect. */
#define RL_REDIRECT_MOVED 1 /* the slot has moved for good: update the map */
#define RL_REDIRECT_ASK 2   /* ask that node once, after ASKING */

/* What a redirection says. */
typedef struct rl_redirect {
    unsigned slot;              /* 0..16383 */
    char host[RL_SLOT_HOSTLEN]; /* NUL-terminated; "" when same_host */
    int port;                   /* 1..65535 */
    int same_host;              /* the error named no host (":7000", Redis 7
                                    when the endpoint is unknown): the host is
                                    that of the node that answered */
} rl_redirect;

/* Reads an error reply (its text as hiredis gives it, without the '-')
 * "MOVED <slot> <host>:<port>" or "ASK <slot> <host>:<port>": the last ':'
 * splits host and port, so "::1:7000" is host "::1"; "[::1]:7000" is host
 * "::1" too. Returns RL_REDIRECT_MOVED or RL_REDIRECT_ASK and fills *out;
 * 0 for any other error and for a malformed one (a slot outside 0..16383,
 * a port outside 1..65535, a host over 255 bytes or one that a user could
 * not give either (src/transport/rl_host.h: '/', '@', '?', '#', a space,
 * a control byte, a ':' that is not an IPv6 address's...), anything more
 * than single spaces between the parts). */
int rl_cluster_redirect(const char *err, size_t len, rl_redirect *out);

/* Classes of rl_cluster_retryable. */
#define RL_CLUSTER_TRYAGAIN 1 /* "TRYAGAIN": a multi-key op during resharding */
#define RL_CLUSTER_DOWN 2     /* "CLUSTERDOWN": the cluster is down for now */

/* Classifies an error reply whose first word is TRYAGAIN or CLUSTERDOWN
 * (the word alone or followed by a space): worth retrying after a pause.
 * Returns 0 for any other error. */
int rl_cluster_retryable(const char *err, size_t len);

/* A master of the map. */
typedef struct rl_slot_node {
    char host[RL_SLOT_HOSTLEN]; /* NUL-terminated */
    int port;                   /* 1..65535 */
} rl_slot_node;

/* Which master serves each slot. A fixed struct of about 300 KiB that
 * allocates nothing: keep it on the heap or in static storage, not on a
 * thread's stack. It may be copied with memcpy. */
typedef struct rl_slot_map {
    unsigned nnodes; /* nodes[0..nnodes-1] are used */
    rl_slot_node nodes[RL_SLOT_MAX_NODES];
    uint16_t owner[RL_SLOT_COUNT]; /* a node's index, or RL_SLOT_UNMAPPED */
} rl_slot_map;

/* Empties m (also its first initialisation): no node, every slot unmapped. */
void rl_slot_map_clear(rl_slot_map *m);

/* Fills m from a CLUSTER SLOTS reply (a redisReply *): an array of
 * [start, end, master, replica...] where start and end are integers with
 * 0 <= start <= end <= 16383 and each node is [host, port, node id, ...]:
 * a bulk host, an integer port 1..65535, a bulk id if there is one (more
 * elements, such as Redis 7's metadata, are not read). Host "" (a node
 * that does not know its own address) and a nil host (Redis 7's
 * cluster-preferred-endpoint-type unknown-endpoint) stand for asked_host,
 * the host we sent CLUSTER SLOTS to (it must then be a valid host); host
 * "?" (a hostname endpoint with no hostname configured) for a master
 * nobody knows the address of: its slots stay unmapped.
 * Replicas are checked like masters, then ignored. Strict: a wrong type, a
 * range out of order or out of bounds, a slot in two ranges, a bad port or
 * host (over 255 bytes, or failing the one host rule of
 * src/transport/rl_host.h), or more than RL_SLOT_MAX_NODES masters is an error. Returns 0 on
 * success (the slots of no range stay unmapped), -1 on an error: err gets
 * the error reply's text, or a message saying which range and node are
 * wrong (no host bytes in it), and m is left empty. */
int rl_slot_map_from_reply(rl_slot_map *m, const void *reply, const char *asked_host, char *err, size_t errlen);

/* The index in m->nodes of the master serving slot, or -1 when the slot is
 * unmapped or not a slot. */
int rl_slot_map_node(const rl_slot_map *m, unsigned slot);

/* Records that host:port serves slot (what a MOVED says), adding the node
 * if m does not hold it yet. When m holds RL_SLOT_MAX_NODES nodes already,
 * one that serves no slot any more is replaced (its index is reused).
 * Returns the node's index, or -1 (m unchanged) when slot, host or port is
 * invalid or no node can be added: then refresh the whole map. */
int rl_slot_map_set(rl_slot_map *m, unsigned slot, const char *host, int port);

/* Non-zero when every one of the 16384 slots has a master in m. */
int rl_slot_map_complete(const rl_slot_map *m);

#endif
