--TEST--
auto_release: a fatal error releases the locks at the error itself, before shutdown functions run and before the request ends (a host may go on after the bailout): memory limit, max_execution_time, an uncaught Error, RedisLock and RedLock, with auto_extend; an E_USER_ERROR that a user error handler takes releases nothing
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

// Under valgrind run-suite sets USE_ZEND_ALLOC=0, which turns memory_limit
// off; the child needs the Zend allocator to hit its limit.
putenv('USE_ZEND_ALLOC=1');

$deaths = [
    'memory limit' => '$hog = []; for ($i = 0; $i < 512; $i++) { $hog[] = str_repeat("x", 1 << 20); }',
    'max_execution_time' => 'set_time_limit(1); for (;;) { $x = hash("sha256", "x"); }',
    'uncaught Error' => 'throw new Error("boom");',
    'E_USER_ERROR taken by a handler' => 'set_error_handler(fn() => true); trigger_error("taken", E_USER_ERROR); echo "went on\n";',
];
$servers = [rl_test_server(0), rl_test_server(1), rl_test_server(2)];
foreach (['RedisLock' => 'new RedisLock(' . var_export($servers[0], true) . ', $options)',
          'RedLock' => 'new RedLock(' . var_export($servers, true) . ', 50, 0, $options)'] as $class => $make) {
    foreach ($deaths as $death => $code) {
        foreach ([false, true] as $auto) {
            $key = 'rl077-' . bin2hex(random_bytes(6));
            $autoCode = var_export($auto, true);
            // the shutdown function runs after the fatal error and before the
            // request's end: what it sees of the lock is what a host that goes
            // on after the bailout would see
            [$exit, $out] = rl_php_child(<<<PHP
                \$options = ['auto_extend' => $autoCode];
                \$lock = $make;
                \$lock->lock('$key', 60000) !== null || exit(3);
                register_shutdown_function(function () use (\$lock) {
                    \$r = new RlTestRedis(rl_test_server(0));
                    echo "at shutdown: PTTL ", \$r->pttl('lock:$key') > 0 ? 'held' : \$r->pttl('lock:$key'),
                         ", isHeld ", var_export(\$lock->isHeld('$key'), true),
                         ", auto_released ", RedisLock::stats()['auto_released'], "\\n";
                });
                $code
                PHP, ['memory_limit' => '32M']);
            $r = new RlTestRedis($servers[0]);
            echo "$class, $death, auto_extend ", $auto ? 'on' : 'off', ": exit $exit; ", trim($out),
                 "; after: PTTL ", $r->pttl("lock:$key") > 0 ? 'held' : $r->pttl("lock:$key"), "\n";
            foreach ($servers as $s) (new RlTestRedis($s))->del("lock:$key");
        }
    }
}
?>
--EXPECT--
RedisLock, memory limit, auto_extend off: exit 255; at shutdown: PTTL -2, isHeld false, auto_released 1; after: PTTL -2
RedisLock, memory limit, auto_extend on: exit 255; at shutdown: PTTL -2, isHeld false, auto_released 1; after: PTTL -2
RedisLock, max_execution_time, auto_extend off: exit 255; at shutdown: PTTL -2, isHeld false, auto_released 1; after: PTTL -2
RedisLock, max_execution_time, auto_extend on: exit 255; at shutdown: PTTL -2, isHeld false, auto_released 1; after: PTTL -2
RedisLock, uncaught Error, auto_extend off: exit 255; at shutdown: PTTL -2, isHeld false, auto_released 1; after: PTTL -2
RedisLock, uncaught Error, auto_extend on: exit 255; at shutdown: PTTL -2, isHeld false, auto_released 1; after: PTTL -2
RedisLock, E_USER_ERROR taken by a handler, auto_extend off: exit 0; went on
at shutdown: PTTL held, isHeld true, auto_released 0; after: PTTL -2
RedisLock, E_USER_ERROR taken by a handler, auto_extend on: exit 0; went on
at shutdown: PTTL held, isHeld true, auto_released 0; after: PTTL -2
RedLock, memory limit, auto_extend off: exit 255; at shutdown: PTTL -2, isHeld false, auto_released 1; after: PTTL -2
RedLock, memory limit, auto_extend on: exit 255; at shutdown: PTTL -2, isHeld false, auto_released 1; after: PTTL -2
RedLock, max_execution_time, auto_extend off: exit 255; at shutdown: PTTL -2, isHeld false, auto_released 1; after: PTTL -2
RedLock, max_execution_time, auto_extend on: exit 255; at shutdown: PTTL -2, isHeld false, auto_released 1; after: PTTL -2
RedLock, uncaught Error, auto_extend off: exit 255; at shutdown: PTTL -2, isHeld false, auto_released 1; after: PTTL -2
RedLock, uncaught Error, auto_extend on: exit 255; at shutdown: PTTL -2, isHeld false, auto_released 1; after: PTTL -2
RedLock, E_USER_ERROR taken by a handler, auto_extend off: exit 0; went on
at shutdown: PTTL held, isHeld true, auto_released 0; after: PTTL -2
RedLock, E_USER_ERROR taken by a handler, auto_extend on: exit 0; went on
at shutdown: PTTL held, isHeld true, auto_released 0; after: PTTL -2
