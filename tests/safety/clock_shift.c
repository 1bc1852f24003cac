/*
 * Preloaded (LD_PRELOAD) into one redis-server by the safety suite's
 * clock-jump fault: its wall clock (clock_gettime of the REALTIME clocks,
 * gettimeofday, time) runs ahead by the milliseconds written in the file
 * named by RL_CLOCK_SHIFT_FILE, read at every call, so the test steps the
 * clock at will as NTP would. Monotonic clocks are left alone.
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

static long long shift_ms(void)
{
    static int fd = -2;
    char buf[32];
    ssize_t n;

    if (fd == -2) {
        const char *path = getenv("RL_CLOCK_SHIFT_FILE");
        fd = path != NULL ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    }
    if (fd < 0 || (n = pread(fd, buf, sizeof buf - 1, 0)) <= 0) {
        return 0;
    }
    buf[n] = '\0';
    return strtoll(buf, NULL, 10);
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    long r = syscall(SYS_clock_gettime, id, ts);

    if (r == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) {
        long long shift = shift_ms();
        ts->tv_sec += shift / 1000;
        ts->tv_nsec += (shift % 1000) * 1000000;
        if (ts->tv_nsec >= 1000000000) {
            ts->tv_sec++;
            ts->tv_nsec -= 1000000000;
        }
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
