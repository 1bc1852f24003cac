dnl redislock: distributed locks over Redis, on hiredis.
PHP_ARG_ENABLE([redislock],
  [whether to enable redislock support],
  [AS_HELP_STRING([--enable-redislock], [Enable redislock support])],
  [yes])

PHP_ARG_WITH([hiredis],
  [where hiredis is installed],
  [AS_HELP_STRING([[--with-hiredis[=DIR]]], [redislock: hiredis install prefix (default: found with pkg-config)])],
  [yes], [no])

if test "$PHP_REDISLOCK" != "no"; then
  dnl A thread-safe (ZTS) PHP, as FrankenPHP runs it: the module globals go
  dnl through TSRM (a pool per PHP thread), the counters are process-wide
  dnl atomics, and the core's per-thread state (the random pool) is
  dnl thread-local (RL_THREADED). A non-ZTS build is unchanged.
  redislock_threads=""
  if test "$PHP_THREAD_SAFETY" = "yes"; then
    redislock_threads="-DRL_THREADED=1"
  fi
  dnl Only the API that hiredis 0.14 and 1.x share is used: the reply
  dnl reader and command formatting; sockets are our own.
  if test "$PHP_HIREDIS" != "yes" && test "$PHP_HIREDIS" != "no"; then
    if test ! -f "$PHP_HIREDIS/include/hiredis/hiredis.h"; then
      AC_MSG_ERROR([hiredis.h not found in $PHP_HIREDIS/include/hiredis])
    fi
    PHP_ADD_INCLUDE([$PHP_HIREDIS/include])
    PHP_ADD_LIBRARY_WITH_PATH([hiredis], [$PHP_HIREDIS/$PHP_LIBDIR], [REDISLOCK_SHARED_LIBADD])
  else
    PKG_CHECK_MODULES([HIREDIS], [hiredis >= 0.14])
    PHP_EVAL_INCLINE([$HIREDIS_CFLAGS])
    dnl sources include <hiredis/hiredis.h>: add the parent of hiredis/ too
    PHP_ADD_INCLUDE([`$PKG_CONFIG --variable=includedir hiredis`])
    PHP_EVAL_LIBLINE([$HIREDIS_LIBS], [REDISLOCK_SHARED_LIBADD])
  fi

  PHP_CHECK_LIBRARY([hiredis], [redisReaderCreate], [],
    [AC_MSG_ERROR([hiredis library not usable (redisReaderCreate missing)])],
    [$REDISLOCK_SHARED_LIBADD])

  dnl TLS (tls://, rediss://): OpenSSL on our own non-blocking sockets
  PKG_CHECK_MODULES([OPENSSL], [openssl >= 1.1.1])
  PHP_EVAL_INCLINE([$OPENSSL_CFLAGS])
  PHP_EVAL_LIBLINE([$OPENSSL_LIBS], [REDISLOCK_SHARED_LIBADD])

  dnl the watchdog thread (auto_extend) needs POSIX threads
  AC_CHECK_HEADER([pthread.h], [
    PHP_ADD_LIBRARY([pthread],, [REDISLOCK_SHARED_LIBADD])
    redislock_watchdog="-DRL_WATCHDOG=1"
  ], [
    AC_MSG_WARN([no pthread.h: built without the watchdog thread (option auto_extend is refused)])
    redislock_watchdog=""
  ])

  PHP_SUBST([REDISLOCK_SHARED_LIBADD])
  AC_DEFINE([HAVE_REDISLOCK], [1], [Have redislock])

  dnl src/ by layer, each including only those before it: base (clock, pid,
  dnl status and error, random, string map), transport (addresses, hosts,
  dnl connections, reply bounds, pool keys, login), engine (the fan-out of
  dnl one op to N nodes, knowing no op), topology (the node interface and its
  dnl kinds: server, Sentinel group, Cluster; their commands and replies),
  dnl lock (ops, lock commands, per-connection lock state, scripts, quorum,
  dnl the protocol: attempt, wait, extend and release; retries, watchdog)
  redislock_src="src/base/rl_clock.c src/base/rl_pid.c src/base/rl_status.c src/base/rl_error.c \
    src/base/rl_token.c src/base/rl_strmap.c src/base/rl_metrics.c \
    src/transport/rl_endpoint.c src/transport/rl_endpoint_parse.c src/transport/rl_host.c src/transport/rl_url.c src/transport/rl_redact.c \
    src/transport/rl_conn.c src/transport/rl_reply_guard.c src/transport/rl_pool_key.c src/transport/rl_tls.c \
    src/transport/rl_argv.c src/transport/rl_handshake.c src/transport/rl_evict.c src/transport/rl_caps.c \
    src/engine/rl_engine.c \
    src/lock/rl_op.c src/lock/rl_queued.c src/lock/rl_lock_keys.c src/lock/rl_lockops.c src/lock/rl_manyops.c src/lock/rl_ordered.c src/lock/rl_deadlock.c src/lock/rl_survey.c src/lock/rl_scan.c src/lock/rl_lock_state.c src/lock/rl_scripts.c \
    src/lock/rl_quorum.c src/lock/rl_retry.c src/lock/rl_watchdog.c \
    src/lock/rl_node_set.c src/lock/rl_acquire.c src/lock/rl_wait.c src/lock/rl_hold.c src/lock/rl_native.c \
    src/topology/rl_sentinel.c src/topology/rl_slots.c src/topology/rl_key_names.c src/topology/rl_topology_cmds.c src/topology/rl_cluster_policy.c \
    src/topology/rl_nodes.c src/topology/rl_node_direct.c src/topology/rl_node_sentinel.c src/topology/rl_node_cluster.c"
  redislock_ext="ext/redislock.c ext/rl_class_errors.c ext/rl_pool.c ext/rl_form_options.c ext/rl_form_address.c \
    ext/rl_object.c ext/rl_module_fatal.c ext/rl_object_on_lost.c ext/rl_module_observe.c ext/rl_object_lock.c ext/rl_object_wait.c ext/rl_method_many.c ext/rl_method_lock.c ext/rl_method_inspect.c \
    ext/rl_class_redislock.c ext/rl_class_redlock.c ext/rl_form_sentinel.c ext/rl_form_cluster.c"
  PHP_NEW_EXTENSION([redislock], [$redislock_src $redislock_ext], [$ext_shared],, [-Wall -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1 $redislock_watchdog $redislock_threads])
  PHP_ADD_INCLUDE([$ext_srcdir])
  PHP_ADD_INCLUDE([$ext_srcdir/ext])
  PHP_ADD_BUILD_DIR([$ext_builddir/src/base])
  PHP_ADD_BUILD_DIR([$ext_builddir/src/transport])
  PHP_ADD_BUILD_DIR([$ext_builddir/src/engine])
  PHP_ADD_BUILD_DIR([$ext_builddir/src/lock])
  PHP_ADD_BUILD_DIR([$ext_builddir/src/topology])
  PHP_ADD_BUILD_DIR([$ext_builddir/ext])
fi
