/* A threaded host of PHP's embed SAPI, the way FrankenPHP runs PHP: one
 * thread-safe (ZTS) PHP started once for the process, then N threads, each
 * with its own PHP resources (ts_resource), each running requests one after
 * another (php_request_startup, php_execute_script, php_request_shutdown)
 * and freeing its resources when it ends (ts_free_thread).
 *
 *   host [-t THREADS] [-n REQUESTS] [-s TASKS] [-d name=value]... [-m MODULE.so] SCRIPT
 *
 * -s: every request runs SCRIPT TASKS times in a row (php_execute_script,
 * which catches a fatal error's bailout), the way the parallel extension's
 * runtimes run one task after another in one request: a fatal error ends
 * the task, the request goes on. Each task's end prints "task K exit=S".
 * Every thread runs SCRIPT REQUESTS times. The script sees
 * $_SERVER['HOST_THREAD'] (0..THREADS-1), 'HOST_THREADS', 'HOST_REQUEST'
 * (0..REQUESTS-1) and 'HOST_REQUESTS', and the environment. The threads
 * start their first request together (a barrier), to contend.
 *
 * What a request prints is kept and written at its end, each line
 * prefixed with "[tT.rR] ", then a line "[tT.rR] exit=S", S being the
 * request's exit status (255 after a fatal error or an uncaught
 * exception). -d sets an INI entry (extension=... loads redislock, as a
 * php.ini does). -m loads an extension by the host's own dlopen() and hands
 * it to PHP at startup, as a module built in: PHP's own loading asks for
 * RTLD_DEEPBIND, which ThreadSanitizer's runtime cannot work with.
 * Exits 0 when PHP started and every thread ran; the scenarios' verdicts
 * are in what the requests print. */
#include <php.h>
#include <SAPI.h>
#include <php_main.h>
#include <php_variables.h>
#include <TSRM.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ZTS
#error "the host needs a thread-safe (ZTS) PHP"
#endif

static int threads = 1, requests = 1, tasks = 1;
static const char *script;
static pthread_barrier_t start_line;
static pthread_mutex_t out_mu = PTHREAD_MUTEX_INITIALIZER;

/* The request under way on this thread, and what it printed so far. */
static __thread int t_index, t_request;
static __thread char *t_buf;
static __thread size_t t_len, t_cap;

static void out_append(const char *s, size_t n)
{
    if (t_len + n + 1 > t_cap) {
        size_t cap = t_cap ? t_cap : 4096;
        while (cap < t_len + n + 1) {
            cap *= 2;
        }
        char *grown = realloc(t_buf, cap);
        if (grown == NULL) {
            return; /* out of memory: the output is cut, the run goes on */
        }
        t_buf = grown;
        t_cap = cap;
    }
    memcpy(t_buf + t_len, s, n);
    t_len += n;
    t_buf[t_len] = '\0';
}

/* Writes the request's output, line by line with its prefix, then its exit status. */
static void out_flush(int status)
{
    size_t i = 0;
    pthread_mutex_lock(&out_mu);
    while (i < t_len) {
        const char *nl = memchr(t_buf + i, '\n', t_len - i);
        size_t n = nl ? (size_t)(nl - (t_buf + i)) : t_len - i;
        printf("[t%d.r%d] %.*s\n", t_index, t_request, (int)n, t_buf + i);
        i += n + 1;
    }
    printf("[t%d.r%d] exit=%d\n", t_index, t_request, status);
    fflush(stdout);
    pthread_mutex_unlock(&out_mu);
    t_len = 0;
}

static size_t host_ub_write(const char *str, size_t len)
{
    out_append(str, len);
    return len;
}

static void host_flush(void *server_context)
{
    (void)server_context;
}

static void host_send_header(sapi_header_struct *h, void *server_context)
{
    (void)h;
    (void)server_context;
}

static char *host_read_cookies(void)
{
    return NULL;
}

static void host_log_message(const char *message, int syslog_type)
{
    (void)syslog_type;
    out_append("log: ", 5);
    out_append(message, strlen(message));
    out_append("\n", 1);
}

static void register_int(const char *name, int v, zval *arr)
{
    char s[16];
    snprintf(s, sizeof s, "%d", v);
    php_register_variable_safe((char *)name, s, strlen(s), arr);
}

static void host_register_variables(zval *arr)
{
    php_import_environment_variables(arr);
    register_int("HOST_THREAD", t_index, arr);
    register_int("HOST_THREADS", threads, arr);
    register_int("HOST_REQUEST", t_request, arr);
    register_int("HOST_REQUESTS", requests, arr);
}

static zend_module_entry *builtin; /* -m */

static int host_startup(sapi_module_struct *m)
{
    return php_module_startup(m, builtin);
}

static sapi_module_struct host_module = {
    "redislock-zts-host",           /* name */
    "redislock ZTS test host",      /* pretty name */
    host_startup,                   /* startup */
    php_module_shutdown_wrapper,    /* shutdown */
    NULL,                           /* activate */
    NULL,                           /* deactivate */
    host_ub_write,                  /* unbuffered write */
    host_flush,                     /* flush */
    NULL,                           /* get uid */
    NULL,                           /* getenv */
    php_error,                      /* error handler */
    NULL,                           /* header handler */
    NULL,                           /* send headers handler */
    host_send_header,               /* send header handler */
    NULL,                           /* read POST data */
    host_read_cookies,              /* read cookies */
    host_register_variables,        /* register server variables */
    host_log_message,               /* log message */
    NULL,                           /* get request time */
    NULL,                           /* child terminate */
    STANDARD_SAPI_MODULE_PROPERTIES
};

/* One request of this thread: what a FrankenPHP thread does per request. */
static void run_request(void)
{
    zend_file_handle fh;
    int status = 0, k;

    SG(server_context) = NULL;
    SG(options) |= SAPI_OPTION_NO_CHDIR;
    SG(request_info).argc = 0;
    SG(request_info).argv = NULL;
    SG(request_info).path_translated = (char *)script;
    if (php_request_startup() == FAILURE) {
        out_append("host: php_request_startup failed\n", 33);
        out_flush(-1);
        return;
    }
    SG(headers_sent) = 1;
    SG(request_info).no_headers = 1;
    for (k = 0; k < tasks; k++) {
        zend_stream_init_filename(&fh, script);
        fh.primary_script = 1;
        php_execute_script(&fh); /* a fatal error bails out to here */
        status = EG(exit_status);
        zend_destroy_file_handle(&fh);
        if (tasks > 1) { /* the request goes on after the task, whatever it died of */
            char line[48];
            int n = snprintf(line, sizeof line, "task %d exit=%d\n", k, status);
            out_append(line, (size_t)n);
            EG(exit_status) = 0;
        }
    }
    php_request_shutdown(NULL); /* RSHUTDOWN: the extension releases this request's locks */
    SG(request_info).path_translated = NULL;
    out_flush(status);
}

static void *thread_main(void *arg)
{
    int r;
    t_index = (int)(intptr_t)arg;
    (void)ts_resource(0); /* this thread's PHP globals: GINIT of every module */
    pthread_barrier_wait(&start_line);
    for (r = 0; r < requests; r++) {
        t_request = r;
        run_request();
    }
    ts_free_thread(); /* GSHUTDOWN: the thread's pooled connections are closed */
    free(t_buf);
    return NULL;
}

int main(int argc, char **argv)
{
    /* INI entries of the command line, after these defaults */
    size_t ini_len = 0, ini_cap = 4096;
    char *ini = malloc(ini_cap);
    static const char defaults[] = "html_errors=0\ndisplay_errors=1\nlog_errors=0\nimplicit_flush=1\n"
                                   "output_buffering=0\nmax_execution_time=0\nmax_input_time=-1\n";
    pthread_t *tids;
    int i, opt, started = 0;

    if (ini == NULL) {
        return 2;
    }
    memcpy(ini, defaults, sizeof defaults - 1);
    ini_len = sizeof defaults - 1;
    while ((opt = getopt(argc, argv, "t:n:s:d:m:")) != -1) {
        switch (opt) {
        case 't':
            threads = atoi(optarg);
            break;
        case 'n':
            requests = atoi(optarg);
            break;
        case 's':
            tasks = atoi(optarg);
            break;
        case 'd': {
            size_t n = strlen(optarg);
            if (ini_len + n + 2 > ini_cap) {
                ini_cap = (ini_len + n + 2) * 2;
                ini = realloc(ini, ini_cap);
                if (ini == NULL) {
                    return 2;
                }
            }
            memcpy(ini + ini_len, optarg, n);
            ini_len += n;
            ini[ini_len++] = '\n';
            break;
        }
        case 'm': {
            void *h = dlopen(optarg, RTLD_NOW | RTLD_GLOBAL);
            zend_module_entry *(*get)(void) = h ? (zend_module_entry * (*)(void)) dlsym(h, "get_module") : NULL;
            if (get == NULL) {
                fprintf(stderr, "host: cannot load %s: %s\n", optarg, dlerror());
                return 2;
            }
            builtin = get();
            break;
        }
        default:
            fprintf(stderr, "usage: %s [-t THREADS] [-n REQUESTS] [-s TASKS] [-d name=value]... [-m MODULE.so] SCRIPT\n", argv[0]);
            return 2;
        }
    }
    if (optind != argc - 1 || threads < 1 || requests < 1 || tasks < 1) {
        fprintf(stderr, "usage: %s [-t THREADS] [-n REQUESTS] [-s TASKS] [-d name=value]... [-m MODULE.so] SCRIPT\n", argv[0]);
        return 2;
    }
    script = argv[optind];
    ini[ini_len] = '\0';

    /* The process: TSRM, the SAPI, the modules (MINIT), once. */
    signal(SIGPIPE, SIG_IGN);
    php_tsrm_startup();
    sapi_startup(&host_module);
    host_module.ini_entries = ini;
    host_module.phpinfo_as_text = 1;
    if (host_module.startup(&host_module) == FAILURE) {
        fprintf(stderr, "host: PHP did not start\n");
        return 2;
    }

    tids = calloc((size_t)threads, sizeof *tids);
    pthread_barrier_init(&start_line, NULL, (unsigned)threads);
    for (i = 0; i < threads; i++) {
        if (pthread_create(&tids[i], NULL, thread_main, (void *)(intptr_t)i) != 0) {
            fprintf(stderr, "host: cannot start thread %d\n", i);
            return 2; /* the others wait at the barrier: nothing to shut down cleanly */
        }
        started++;
    }
    for (i = 0; i < started; i++) {
        pthread_join(tids[i], NULL);
    }
    pthread_barrier_destroy(&start_line);
    free(tids);

    /* MSHUTDOWN (the watchdog is joined there), then the SAPI and TSRM. */
    php_module_shutdown();
    sapi_shutdown();
    tsrm_shutdown();
    free(ini);
    return 0;
}
