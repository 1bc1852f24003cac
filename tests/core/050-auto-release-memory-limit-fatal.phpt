--TEST--
auto_release: a child php that dies of a memory-limit fatal error while holding a lock frees it as it exits (long before the TTL)
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

$key = 'rl050-' . bin2hex(random_bytes(6));
$go = sys_get_temp_dir() . "/$key.go";
$child = rl_php_child_start(<<<PHP
    \$lock = new RedisLock(rl_test_server(0));
    \$token = \$lock->lock('$key', 60000);
    echo "locked ", \$token, "\\n";
    rl_wait_until(fn() => file_exists('$go'), 120.0);
    // the critical section runs out of memory
    \$hog = [];
    for (\$i = 0; \$i < 512; \$i++) {
        \$hog[] = str_repeat('x', 1 << 20);
    }
    echo "memory_limit not enforced\\n";
    PHP, ['memory_limit' => '32M']);

$r = new RlTestRedis(rl_test_server(0));
rl_wait_until(fn() => str_contains($child->output(), "\n") || !$child->isRunning(), 120.0);
$token = substr(trim($child->output()), strlen('locked '));
var_dump(strlen($token) >= 16 && $r->get("lock:$key") === $token);
$ttl = $r->pttl("lock:$key");
var_dump($ttl > 50000 && $ttl <= 60000);

touch($go);
[$code, $out, $err] = $child->wait(120.0);
$after = $r->pttl("lock:$key");            // at once: no waiting for the TTL
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
stderr: Fatal error: Allowed memory size of 33554432 bytes exhausted %A
PTTL after exit: -2
