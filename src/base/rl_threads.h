/* Built for a thread-safe (ZTS) PHP, where several PHP threads run
 * requests in one process: config.m4 defines RL_THREADED. State that each
 * thread must have to itself is RL_THREAD_LOCAL; on the usual (non-ZTS)
 * build it is a plain static, exactly as before. State shared by the
 * threads (the watchdog, TLS contexts, the slot table, the pid) is guarded
 * whatever the build, because the watchdog is a thread of its own. */
#ifndef RL_THREADS_H
#define RL_THREADS_H

#ifdef RL_THREADED
#define RL_THREAD_LOCAL __thread
#else
#define RL_THREAD_LOCAL
#endif

#endif
