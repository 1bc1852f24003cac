#include "rl_token.h"
#include "rl_pid.h"
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

/* Random bytes are read 32 tokens at a time (one system call, not one per
 * lock). A forked child drops what it inherited: two processes must never
 * hand out the same bytes. Used bytes are wiped. */
static unsigned char pool[RL_TOKEN_BYTES * 32];
static size_t pool_left;
static pid_t pool_pid;

static int take_random(unsigned char *raw)
{
    if (pool_left < RL_TOKEN_BYTES || pool_pid != rl_pid()) {
        if (fill_random(pool, sizeof pool) != 0) {
            pool_left = 0;
            return -1;
        }
        pool_left = sizeof pool;
        pool_pid = rl_pid();
    }
    pool_left -= RL_TOKEN_BYTES;
    memcpy(raw, pool + pool_left, RL_TOKEN_BYTES);
    memset(pool + pool_left, 0, RL_TOKEN_BYTES);
    return 0;
}

int rl_token_new(char out[RL_TOKEN_LEN + 1])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char raw[RL_TOKEN_BYTES];
    size_t i;

    if (take_random(raw) != 0) {
        return -1;
    }
    for (i = 0; i < RL_TOKEN_BYTES; i++) {
        out[2 * i] = hex[raw[i] >> 4];
        out[2 * i + 1] = hex[raw[i] & 15];
    }
    out[RL_TOKEN_LEN] = '\0';
    return 0;
}
