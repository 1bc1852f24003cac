--TEST--
auto_release: a child php killed by max_execution_time (set_time_limit + busy loop) while holding a lock frees it as it exits
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

// Under valgrind run-suite sets USE_ZEND_ALLOC=0, and then PHP itself leaks
// what a timeout bails out of (no extension needed to see it); the child keeps
// the Zend allocator, so its valgrind reports only memory errors and real leaks
// of malloc()ed memory.
putenv('USE_ZEND_ALLOC=1');

$key = 'rl051-' . bin2hex(random_bytes(6));
$go = sys_get_temp_dir() . "/$key.go";
$child = rl_php_child_start(<<<PHP
    \$lock = new RedisLock(rl_test_server(0));
    \$token = \$lock->lock('$key', 60000);
    echo "locked ", \$token, "\\n";
    rl_wait_until(fn() => file_exists('$go'), 120.0);
    // the critical section never ends
    set_time_limit(1);
    \$n = 0;
    while (true) {
        \$n++;
    }
    PHP);

$r = new RlTestRedis(rl_test_server(0));
rl_wait_until(fn() => str_contains($child->output(), "\n") || !$child->isRunning(), 120.0);
$token = substr(trim($child->output()), strlen('locked '));
var_dump(strlen($token) >= 16 && $r->get("lock:$key") === $token);
$ttl = $r->pttl("lock:$key");
var_dump($ttl > 50000 && $ttl <= 60000);

touch($go);
[$code, $out, $err] = $child->wait(120.0);
$after = $r->pttl("lock:$key");
echo "exit code: $code\n";
echo "stdout: $out";
echo "stderr: ", trim($err), "\n";
echo "PTTL after exit: $after\n";

unlink($go);
$r->del("lock:$key");
?>
--EXPECTF--
bool(true)
bool(true)
exit code: 255
stdout: locked %s
stderr: Fatal error: Maximum execution time of 1 second exceeded in %A
PTTL after exit: -2
