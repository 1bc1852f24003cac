/* Lock tokens: random bytes from the kernel CSPRNG, hex encoded; and the
 * random bytes the rest of the core needs. */
#ifndef RL_TOKEN_H
#define RL_TOKEN_H
#include <stddef.h>

#define RL_TOKEN_BYTES 16
#define RL_TOKEN_LEN (RL_TOKEN_BYTES * 2)

/* Writes RL_TOKEN_LEN hex characters and a NUL to out.
 * Returns 0, or -1 when the kernel gave no randomness (errno set). */
int rl_token_new(char out[RL_TOKEN_LEN + 1]);

/* A token that names its holder (option holder_names): the random part,
 * a space, then the name (host, pid, request), at most RL_HOLDER_NAME_MAX
 * bytes of it, control bytes written as '?'. The name is for people (the
 * redislock command shows it); the random part alone is never shown. */
#define RL_HOLDER_NAME_MAX 160
#define RL_NAMED_TOKEN_MAX (RL_TOKEN_LEN + 1 + RL_HOLDER_NAME_MAX)

/* A party: the process (a thread of a thread-safe PHP) that holds locks
 * and waits; its id is the first RL_PARTY_LEN characters of every fresh
 * token it makes (rl_token_named), so that a waiter can tell whom it waits
 * for (deadlock detection, src/lock/rl_deadlock.c). */
#define RL_PARTY_LEN 16

/* This process's (thread's) party id, RL_PARTY_LEN hex characters; made
 * anew in a forked child. NULL when no random bytes could be had. */
const char *rl_party(void);

/* The party of a token rl_token_named() made, into out: 1; 0 for a token
 * of another shape (a caller's own). */
int rl_token_party(const char *token, size_t len, char out[RL_PARTY_LEN + 1]);

/* Writes a fresh token with name (none when name_len is 0) and a NUL to
 * out: the party's id, then RL_TOKEN_LEN - RL_PARTY_LEN random hex
 * characters (a party's tokens differ in those 64 random bits); returns
 * its length, or 0 when the kernel gave no randomness. */
size_t rl_token_named(char out[RL_NAMED_TOKEN_MAX + 1], const char *name, size_t name_len);

/* The holder's name in a token rl_token_named() made (NULL, *len 0: a
 * token without one, or the caller's own owner name). */
const char *rl_token_holder(const char *token, size_t token_len, size_t *len);

/* 1 when a caller's own token would read as naming a holder (the shape
 * rl_token_holder() reads) and this party did not make it: an owner that
 * could show any text as a holder's name (the caller refuses it); 0 for
 * any other token, and for one this party made (a token lock() returned,
 * handed back). */
int rl_token_names_another(const char *token, size_t len);

/* n bytes from the kernel CSPRNG, read in batches; a forked child never
 * gets bytes its parent had. Returns 0, or -1 (errno set). */
int rl_random_bytes(void *out, size_t n);

#endif
