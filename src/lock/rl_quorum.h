/* The quorum arithmetic of a lock operation, apart from any I/O: what the
 * nodes' votes add up to, when a lock is won and until when it can be
 * trusted, which nodes must be undone after a lost attempt, and how long
 * the holder's lock has left. One node is a quorum of one. */
#ifndef RL_QUORUM_H
#define RL_QUORUM_H
#include <stddef.h>
#include <stdint.h>
#include "../engine/rl_engine.h"

/* intdiv(n, 2) + 1: a majority of n nodes. */
size_t rl_quorum_of(size_t n);

/* What n votes add up to. */
typedef struct rl_count {
    size_t n, quorum;
    size_t yes;     /* answered yes */
    size_t no;      /* answered no */
    size_t failed;  /* errored or timed out */
    size_t skipped; /* not waited for: the decision was made without them */
} rl_count;

void rl_count_votes(rl_count *c, const rl_vote *votes, size_t n);

/* How an operation ended. */
typedef enum rl_outcome {
    RL_WON,      /* a quorum said yes, with validity left */
    RL_LOST,     /* the nodes answered, not enough said yes (or no validity was left) */
    RL_NO_QUORUM /* more nodes failed than a quorum can spare: an error for the caller */
} rl_outcome;

/* Decides an operation from its count; until_us is the validity end of
 * rl_valid_until() (0 when the operation has no validity to check) and
 * now_us the time the decision is made. */
rl_outcome rl_decide(const rl_count *c, int64_t until_us, int64_t now_us);

/* When a lock of ttl_ms taken at start_us stops being trustworthy
 * (monotonic µs). With drift (RedLock) the Redlock rule applies: the ttl
 * less ttl * drift_factor + 2 ms for clock drift and expiry precision. */
int64_t rl_valid_until(int64_t start_us, long long ttl_ms, double drift_factor, int drift);

/* After an attempt that was not won: does node i need a compare-and-delete?
 * Every node the command went out to, unless it clearly answered no. */
int rl_needs_undo(const rl_vote *v);

/* ... for a caller's token whose own lock counts as held (op refuse_own):
 * only the nodes that answered yes. Elsewhere the token's lock may be
 * another process's (the same owner name), which an undo would delete. */
int rl_granted(const rl_vote *v);

/* Does a lost attempt need an undo at all: some node said yes, or did not
 * answer cleanly (its SET may have run). */
int rl_attempt_needs_undo(const rl_count *c);

/* The shortest time the holder's lock has left among the nodes that said
 * no (the acquire-or-queue script reports it): 0 when a node found it gone
 * just then, -1 when no node said. */
long long rl_shortest_pttl(const rl_vote *votes, size_t n);

/* The number of a won acquisition with fencing: the largest that a node
 * voting yes counted (each node keeps its own counter); 0 when none did. */
long long rl_fence_of(const rl_vote *votes, size_t n);

/* Does node i need the fence number written back (RedLock: a won
 * acquisition counts once a quorum of the nodes that granted it hold its
 * number)? Only a node that granted it with a count below the number. A
 * node that did not grant it proves nothing, raised or not: a concurrent
 * attempt may hold it and have counted there first, and that attempt's
 * later grants elsewhere could then give it the same number (test 601). */
int rl_fence_needs_raise(const rl_vote *v, long long fence);

/* Did a node answer an extend (or holds) sent without the shared holders' key with
 * -1 (the token's lock is a shared one: ask again with that key)? */
int rl_extend_wants_shared(const rl_vote *votes, size_t n);

/* For a failure report: the status every failed node shares, or
 * RL_E_NODES_UNREACHABLE when they differ and each is a connection failure,
 * RL_E_NODES
 * when they failed in different ways; and whether all failures mean the
 * nodes could not be talked to (a connection error). */
int rl_failure_status(const rl_vote *votes, size_t n);
int rl_failure_is_connection(const rl_vote *votes, size_t n);

/* A count that a quorum of nodes reached (each yes vote's value a count:
 * how many of a lock of several one release let go there): the largest
 * that at least quorum of the votes reached; 0 when none did. */
size_t rl_quorum_count(const rl_vote *votes, size_t n, size_t quorum);

#endif
