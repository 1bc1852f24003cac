--TEST--
Safety suite, CI's short schedule (seed 7), fault server-pause: a server stopped (SIGSTOP) 1.5 s: RedLock's minority costs no failed call and no overlap; RedisLock's only node fails calls only while stopped
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/../safety/ci.inc';

$runs = rl_safety_ci('server-pause');
echo "RedLock: failed calls: ", array_sum(array_map(fn($r) => str_starts_with($r["mode"], "redlock") ? $r["failed_calls"] : 0, $runs)), "\n";
?>
--EXPECT--
exit: 0; a row for every mode with the fault: yes
fenced rows, stale writes accepted: 0
RedLock: failed calls: 0
