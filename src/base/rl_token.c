#include "rl_token.h"
#include "rl_pid.h"
#include "rl_threads.h"
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

static int fill_from_urandom(unsigned char *buf, size_t len)
{
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    size_t got = 0;
    if (fd < 0) {
        return -1;
    }
    while (got < len) {
        ssize_t n = read(fd, buf + got, len - got);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) {
                continue;
            }
            close(fd);
            return -1;
        }
        got += (size_t)n;
    }
    close(fd);
    return 0;
}

static int fill_random(unsigned char *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = getrandom(buf + got, len - got, 0);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == ENOSYS) { /* very old kernel */
                return fill_from_urandom(buf + got, len - got);
            }
            return -1;
        }
        got += (size_t)n;
    }
    return 0;
}

/* The one random source of the core (tokens, retry pauses). Random bytes are read 32 tokens at a time (one system call, not one per
 * lock). A forked child drops what it inherited: two processes must never
 * hand out the same bytes. Used bytes are wiped. Built for a thread-safe
 * PHP (RL_THREADED), each thread has a pool of its own: two threads must
 * never hand out the same bytes either, and no lock is taken per token. */
static RL_THREAD_LOCAL unsigned char pool[RL_TOKEN_BYTES * 32];
static RL_THREAD_LOCAL size_t pool_left;
static RL_THREAD_LOCAL pid_t pool_pid;

int rl_random_bytes(void *out, size_t n)
{
    unsigned char *dst = out;
    while (n > 0) {
        size_t take;
        if (pool_left == 0 || pool_pid != rl_pid()) {
            if (fill_random(pool, sizeof pool) != 0) {
                pool_left = 0;
                return -1;
            }
            pool_left = sizeof pool;
            pool_pid = rl_pid();
        }
        take = n < pool_left ? n : pool_left;
        pool_left -= take;
        memcpy(dst, pool + pool_left, take);
        memset(pool + pool_left, 0, take);
        dst += take;
        n -= take;
    }
    return 0;
}

int rl_token_new(char out[RL_TOKEN_LEN + 1])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char raw[RL_TOKEN_BYTES];
    size_t i;

    if (rl_random_bytes(raw, sizeof raw) != 0) {
        return -1;
    }
    for (i = 0; i < RL_TOKEN_BYTES; i++) {
        out[2 * i] = hex[raw[i] >> 4];
        out[2 * i + 1] = hex[raw[i] & 15];
    }
    out[RL_TOKEN_LEN] = '\0';
    return 0;
}

/* This process's (this thread's) party: random, made again after a fork. */
static RL_THREAD_LOCAL char party[RL_PARTY_LEN + 1];
static RL_THREAD_LOCAL pid_t party_pid;

const char *rl_party(void)
{
    char fresh[RL_TOKEN_LEN + 1];
    if (party[0] == '\0' || party_pid != rl_pid()) {
        if (rl_token_new(fresh) != 0) {
            return NULL;
        }
        memcpy(party, fresh, RL_PARTY_LEN);
        party[RL_PARTY_LEN] = '\0';
        party_pid = rl_pid();
    }
    return party;
}

static int is_hex(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) {
            return 0;
        }
    }
    return 1;
}

int rl_token_party(const char *token, size_t len, char out[RL_PARTY_LEN + 1])
{
    if (len < RL_TOKEN_LEN || len > RL_NAMED_TOKEN_MAX || (len > RL_TOKEN_LEN && token[RL_TOKEN_LEN] != ' ')
        || !is_hex(token, RL_TOKEN_LEN)) {
        return 0;
    }
    memcpy(out, token, RL_PARTY_LEN);
    out[RL_PARTY_LEN] = '\0';
    return 1;
}

size_t rl_token_named(char out[RL_NAMED_TOKEN_MAX + 1], const char *name, size_t name_len)
{
    size_t i, len = RL_TOKEN_LEN;
    const char *p = rl_party();
    if (p == NULL || rl_token_new(out) != 0) {
        return 0;
    }
    memcpy(out, p, RL_PARTY_LEN); /* the holder's party first: a waiter for it finds whom it waits for */
    if (name_len == 0) {
        return len;
    }
    out[len++] = ' ';
    if (name_len > RL_HOLDER_NAME_MAX) { /* cut, but not inside a UTF-8 character */
        name_len = RL_HOLDER_NAME_MAX;
        while (name_len > 0 && ((unsigned char)name[name_len] & 0xC0) == 0x80) {
            name_len--;
        }
    }
    for (i = 0; i < name_len; i++) {
        unsigned char c = (unsigned char)name[i];
        out[len++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    out[len] = '\0';
    return len;
}

int rl_token_names_another(const char *token, size_t len)
{
    size_t name_len;
    const char *me = rl_party();
    if (rl_token_holder(token, len, &name_len) == NULL) {
        return 0;
    }
    return me == NULL || memcmp(token, me, RL_PARTY_LEN) != 0;
}

const char *rl_token_holder(const char *token, size_t token_len, size_t *len)
{
    *len = 0;
    if (token_len <= RL_TOKEN_LEN + 1 || token_len > RL_NAMED_TOKEN_MAX || token[RL_TOKEN_LEN] != ' ') {
        return NULL;
    }
    if (!is_hex(token, RL_TOKEN_LEN)) { /* our hex, not an owner name that happens to hold a space */
        return NULL;
    }
    *len = token_len - RL_TOKEN_LEN - 1;
    return token + RL_TOKEN_LEN + 1;
}
