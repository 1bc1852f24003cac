--TEST--
auto_release: an uncaught exception out of the critical section frees the lock as the child exits
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$key = 'rl053-' . bin2hex(random_bytes(6));
$go = sys_get_temp_dir() . "/$key.go";
$child = rl_php_child_start(<<<PHP
    \$lock = new RedisLock(rl_test_server(0));
    \$token = \$lock->lock('$key', 60000);
    echo "locked ", \$token, "\\n";
    rl_wait_until(fn() => file_exists('$go'), 120.0);
    throw new DomainException('stock went negative');
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
stderr: Fatal error: Uncaught DomainException: stock went negative in %s
Stack trace:
#0 {main}
  thrown in %s on line %d
PTTL after exit: -2
