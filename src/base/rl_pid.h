/* The current process id, cached: getpid() is a system call, and every
 * operation asks (a connection or lock from before a fork is not ours). */
#ifndef RL_PID_H
#define RL_PID_H
#include <sys/types.h>

/* getpid(), refreshed in the child after every fork(). */
pid_t rl_pid(void);

#endif
