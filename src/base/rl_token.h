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

/* n bytes from the kernel CSPRNG, read in batches; a forked child never
 * gets bytes its parent had. Returns 0, or -1 (errno set). */
int rl_random_bytes(void *out, size_t n);

#endif
