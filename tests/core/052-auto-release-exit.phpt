--TEST--
auto_release: exit() inside the critical section (finally blocks do not run) still frees the lock as the child exits
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$key = 'rl052-' . bin2hex(random_bytes(6));
$go = sys_get_temp_dir() . "/$key.go";
$child = rl_php_child_start(<<<PHP
    function work(RedisLock \$lock): void
    {
        \$token = \$lock->lock('$key', 60000);
        echo "locked ", \$token, "\\n";
        try {
            rl_wait_until(fn() => file_exists('$go'), 120.0);
            exit(3);
        } finally {
            echo "finally ran\\n";   // PHP 8 does not run it on exit()
            \$lock->unlock('$key', \$token);
        }
    }
    \$lock = new RedisLock(rl_test_server(0));
    work(\$lock);
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
echo "stderr: [", trim($err), "]\n";
echo "PTTL after exit: $after\n";

unlink($go);
$r->del("lock:$key");
?>
--EXPECTF--
bool(true)
bool(true)
exit code: 3
stdout: locked %s
stderr: []
PTTL after exit: -2
