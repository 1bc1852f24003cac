#include "rl_pid.h"
#include <pthread.h>
#include <unistd.h>

static pid_t cached;

static void forked_child(void)
{
    cached = 0;
}

pid_t rl_pid(void)
{
    static int registered;
    if (!registered) {
        pthread_atfork(NULL, NULL, forked_child);
        registered = 1;
    }
    if (cached == 0) {
        cached = getpid();
    }
    return cached;
}
