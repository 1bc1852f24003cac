#include "rl_pid.h"
#include <pthread.h>
#include <unistd.h>

/* Read by every thread (the PHP threads of a thread-safe PHP, the
 * watchdog): relaxed atomic loads and stores, which compile to the plain
 * moves they were. 0 after a fork, until the child asks. */
static pid_t cached;
static pthread_once_t registered = PTHREAD_ONCE_INIT;

static void forked_child(void)
{
    __atomic_store_n(&cached, 0, __ATOMIC_RELAXED);
}

static void register_atfork(void)
{
    pthread_atfork(NULL, NULL, forked_child);
}

pid_t rl_pid(void)
{
    pid_t pid = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (pid == 0) { /* first call, or first after a fork: the slow path */
        pthread_once(&registered, register_atfork);
        pid = getpid();
        __atomic_store_n(&cached, pid, __ATOMIC_RELAXED);
    }
    return pid;
}
