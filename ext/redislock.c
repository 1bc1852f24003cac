/* The module: INI, class registration, request and module life cycle, phpinfo. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "php.h"
#include "php_ini.h"
#include "ext/standard/info.h"
#include "ext/spl/spl_exceptions.h"
#include "zend_attributes.h"
#include "php_redislock.h"
#include "src/lock/rl_watchdog.h"
#include "rl_class_errors.h"
#include "rl_object.h"
#include "rl_module_fatal.h"
#include "rl_object_on_lost.h"
#include "rl_pool.h"
#include "src/transport/rl_tls.h"
#include "src/transport/rl_handshake.h"
#include "src/transport/rl_evict.h"
#include "src/topology/rl_node.h"
#include "rl_module_observe.h"
#include "rl_class_redislock.h"
#include "rl_class_redlock.h"
#include "stubs/redislock_arginfo.h"
#include "ext/standard/sha1.h"
#include "src/lock/rl_scripts.h"
#include <hiredis/hiredis.h>

ZEND_DECLARE_MODULE_GLOBALS(redislock)

rl_counters rl_stats; /* per process, every thread's counts (php_redislock.h) */

PHP_INI_BEGIN()
    STD_PHP_INI_ENTRY("redislock.connect_timeout", "1.0", PHP_INI_ALL, OnUpdateReal, connect_timeout,
                      zend_redislock_globals, redislock_globals)
    STD_PHP_INI_ENTRY("redislock.timeout", "1.0", PHP_INI_ALL, OnUpdateReal, timeout, zend_redislock_globals,
                      redislock_globals)
    STD_PHP_INI_BOOLEAN("redislock.persistent", "1", PHP_INI_ALL, OnUpdateBool, persistent, zend_redislock_globals,
                        redislock_globals)
    STD_PHP_INI_BOOLEAN("redislock.auto_release", "1", PHP_INI_ALL, OnUpdateBool, auto_release, zend_redislock_globals,
                        redislock_globals)
PHP_INI_END()

/* Per thread on a thread-safe PHP (each PHP thread's globals: called when
 * the thread is given its resources), once before MINIT otherwise. The
 * tables are persistent: they outlive the thread's requests. */
static PHP_GINIT_FUNCTION(redislock)
{
#if defined(COMPILE_DL_REDISLOCK) && defined(ZTS)
    ZEND_TSRMLS_CACHE_UPDATE();
#endif
    memset(redislock_globals, 0, sizeof *redislock_globals);
    rl_pool_init(&redislock_globals->pool);
    redislock_globals->tables_ready = true;
}

/* Frees one thread's tables: its pooled connections are closed by the
 * thread that used them (GSHUTDOWN runs when a PHP thread is freed), or by
 * module shutdown for the thread that runs it. */
static void free_tables(zend_redislock_globals *g)
{
    if (g->tables_ready) {
        g->tables_ready = false;
        rl_topology_cache_free(&g->topology); /* g's thread's, whichever thread runs this */
        rl_pool_shutdown(&g->pool);
    }
}

static PHP_GSHUTDOWN_FUNCTION(redislock)
{
    free_tables(redislock_globals);
}

/* The scripts' SHA1s for EVALSHA, from their text: they cannot disagree. */
static void hash_scripts(void)
{
    int s;
    for (s = 0; s < RL_SCRIPT_COUNT; s++) {
        const char *src = rl_script_source((rl_script)s);
        unsigned char digest[20];
        char hex[41];
        PHP_SHA1_CTX ctx;
        PHP_SHA1Init(&ctx);
        PHP_SHA1Update(&ctx, (const unsigned char *)src, strlen(src));
        PHP_SHA1Final(digest, &ctx);
        make_sha1_digest(hex, digest);
        rl_script_set_sha((rl_script)s, hex);
    }
}

static PHP_MINIT_FUNCTION(redislock)
{
    (void)type;
    hash_scripts();
    /* before php-fpm forks its workers: they all count into this mapping */
    rl_metrics_open();
    rl_handshake_set_version(PHP_REDISLOCK_VERSION); /* connections name themselves (CLIENT SETINFO) */
    REGISTER_INI_ENTRIES();
    rl_ce_exception = register_class_RedisLockException(spl_ce_RuntimeException);
    rl_ce_connection_exception = register_class_RedisLockConnectionException(rl_ce_exception);
    rl_ce_timeout_exception = register_class_RedisLockTimeoutException(rl_ce_exception);
    rl_ce_deadlock_exception = register_class_RedisLockDeadlockException(rl_ce_exception);
    rl_ce_lost_exception = register_class_RedisLockLostException(rl_ce_exception);
    rl_object_init_handlers();
    rl_on_lost_init(); /* option on_lost: the engine's interrupt, chained */
    rl_fatal_init();   /* locks released at a fatal error itself (a host may go on after it) */
    rl_redislock_init(register_class_RedisLock());
    rl_redlock_init(register_class_RedLock());
    return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(redislock)
{
    (void)type;
    rl_watch_shutdown();                              /* first: its connections use the TLS contexts */
    free_tables(ZEND_MODULE_GLOBALS_BULK(redislock)); /* this thread's; the others' at their GSHUTDOWN */
    rl_tls_shutdown(); /* after the pool; a context still used by a thread's connection lives until its last session is freed */
    rl_metrics_close(); /* after the watchdog, which counts into it */
    rl_evict_forget();
    UNREGISTER_INI_ENTRIES();
    return SUCCESS;
}

static PHP_RINIT_FUNCTION(redislock)
{
    (void)type, (void)module_number;
#if defined(COMPILE_DL_REDISLOCK) && defined(ZTS)
    ZEND_TSRMLS_CACHE_UPDATE();
#endif
    RLG(live) = NULL;
    rl_on_lost_reset();
    return SUCCESS;
}

/* Runs after destructors, also after a fatal error, exit() or a timeout:
 * the place where locks left held are released. */
static PHP_RSHUTDOWN_FUNCTION(redislock)
{
    (void)type, (void)module_number;
    rl_watch_clear(RL_THREAD_OWNER); /* this request's auto_extend locks are extended no more (only this thread's) */
    rl_release_live_objects();
    rl_pool_settle();
    return SUCCESS;
}

static PHP_MINFO_FUNCTION(redislock)
{
    char hiredis[32];
    snprintf(hiredis, sizeof hiredis, "%d.%d.%d", HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH);
    php_info_print_table_start();
    php_info_print_table_row(2, "redislock support", "enabled");
    php_info_print_table_row(2, "Version", PHP_REDISLOCK_VERSION);
    php_info_print_table_row(2, "hiredis version (headers)", hiredis);
    php_info_print_table_end();
    php_info_print_table_start();
    php_info_print_table_header(2, "This process", "Count");
    rl_counters_info();
    php_info_print_table_end();
    php_info_print_table_start();
    php_info_print_table_header(2, "The pool (all processes: RedisLock::metrics())", "Count");
    rl_metrics_info();
    php_info_print_table_end();
    php_info_print_table_start();
    php_info_print_table_header(2, "Pooled connection", "State");
    rl_pool_info();
    php_info_print_table_end();
    DISPLAY_INI_ENTRIES();
}

static const zend_module_dep redislock_deps[] = {ZEND_MOD_REQUIRED("spl") ZEND_MOD_REQUIRED("hash")
                                                     ZEND_MOD_OPTIONAL("redis") ZEND_MOD_END};

zend_module_entry redislock_module_entry = {STANDARD_MODULE_HEADER_EX,
                                            NULL,
                                            redislock_deps,
                                            "redislock",
                                            NULL,
                                            PHP_MINIT(redislock),
                                            PHP_MSHUTDOWN(redislock),
                                            PHP_RINIT(redislock),
                                            PHP_RSHUTDOWN(redislock),
                                            PHP_MINFO(redislock),
                                            PHP_REDISLOCK_VERSION,
                                            PHP_MODULE_GLOBALS(redislock),
                                            PHP_GINIT(redislock),
                                            PHP_GSHUTDOWN(redislock),
                                            NULL,
                                            STANDARD_MODULE_PROPERTIES_EX};

#ifdef COMPILE_DL_REDISLOCK
#ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
#endif
ZEND_GET_MODULE(redislock)
#endif
