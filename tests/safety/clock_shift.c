/*
 * Preloaded (LD_PRELOAD) into a redis-server by the safety suite's clock
 * faults: its wall clock (clock_gettime of the REALTIME clocks,
 * gettimeofday, time) is shifted by what the file named by
 * RL_CLOCK_SHIFT_FILE says, read at every call, so the test steps and
 * drifts the clock at will as NTP, or a bad oscillator, would. The file
 * holds one line:
 *   offset_us rate_ppm base_ns check
 * the shift is offset_us plus rate_ppm millionths of the CLOCK_MONOTONIC
 * nanoseconds since base_ns (a step: a new offset; a drift: a rate, the
 * shift then grows or shrinks with time); check is the three numbers
 * XOR-ed with RL_CLOCK_CHECK, so a line read while it was being rewritten
 * is told and the last good one kept. Monotonic clocks are left alone.
 *
 * The real time comes from the system call, not from libc looked up with
 * dlsym: libfaketime does that and cannot start in Debian's redis-server,
 * whose jemalloc asks for the time while dlsym allocates.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define RL_CLOCK_CHECK 0x5a5a5a5a5a5aLL

/* Reads four signed decimal numbers (no libc: called inside the
 * allocator's first clock reads). Returns how many were read. */
static int parse4(const char *p, long long v[4])
{
    int k;

    for (k = 0; k < 4; k++) {
        int neg = 0, digits = 0;
        long long x = 0;
        while (*p == ' ') {
            p++;
        }
        if (*p == '-') {
            neg = 1;
            p++;
        }
        for (; *p >= '0' && *p <= '9'; p++, digits++) {
            x = x * 10 + (*p - '0');
        }
        if (digits == 0 || digits > 18) {
            return k;
        }
        v[k] = neg ? -x : x;
    }
    return k;
}

/* a * ppm / 1e6 without overflow for a up to centuries of nanoseconds */
static long long scale_ppm(long long a, long long ppm)
{
    return (a / 1000000) * ppm + (a % 1000000) * ppm / 1000000;
}

/* The shift in nanoseconds at the monotonic time now_ns. */
static long long shift_ns(long long now_ns)
{
    static int fd = -2;
    /* the last line read whole (several threads may race here: a torn
     * read of these falls back to an older good line, no worse) */
    static long long offset_us, rate_ppm, base_ns;
    char buf[128];
    ssize_t n;
    int tries;

    if (fd == -2) {
        const char *path = getenv("RL_CLOCK_SHIFT_FILE");
        fd = path != NULL ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    }
    for (tries = 0; fd >= 0 && tries < 3; tries++) {
        long long v[4];
        if ((n = pread(fd, buf, sizeof buf - 1, 0)) <= 0) {
            break;
        }
        buf[n] = '\0';
        if (parse4(buf, v) == 4 && (v[0] ^ v[1] ^ v[2] ^ RL_CLOCK_CHECK) == v[3]) {
            offset_us = v[0];
            rate_ppm = v[1];
            base_ns = v[2];
            break;
        }
    }
    return offset_us * 1000 + (rate_ppm != 0 ? scale_ppm(now_ns - base_ns, rate_ppm) : 0);
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    long r = syscall(SYS_clock_gettime, id, ts);

    if (r == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) {
        struct timespec mono;
        long long t;
        syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &mono);
        t = (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec
            + shift_ns((long long)mono.tv_sec * 1000000000LL + mono.tv_nsec);
        ts->tv_sec = (time_t)(t / 1000000000LL);
        ts->tv_nsec = (long)(t % 1000000000LL);
    }
    return (int)r;
}

int gettimeofday(struct timeval *tv, void *tz)
{
    struct timespec ts;

    (void)tz;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
        return -1;
    }
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
    return 0;
}

time_t time(time_t *out)
{
    struct timespec ts;
    time_t now = clock_gettime(CLOCK_REALTIME, &ts) == 0 ? ts.tv_sec : (time_t)-1;

    if (out != NULL) {
        *out = now;
    }
    return now;
}
