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

/* Writes a fresh token with name (none when name_len is 0) and a NUL to
 * out; returns its length, or 0 when the kernel gave no randomness. */
size_t rl_token_named(char out[RL_NAMED_TOKEN_MAX + 1], const char *name, size_t name_len);

/* The holder's name in a token rl_token_named() made (NULL, *len 0: a
 * token without one, or the caller's own owner name). */
const char *rl_token_holder(const char *token, size_t token_len, size_t *len);

/* n bytes from the kernel CSPRNG, read in batches; a forked child never
 * gets bytes its parent had. Returns 0, or -1 (errno set). */
int rl_random_bytes(void *out, size_t n);

#endif
