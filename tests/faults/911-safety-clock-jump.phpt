--TEST--
Safety suite, CI's short schedule (seed 7), fault clock-jump: one redis-server's wall clock steps forward by twice the TTL: RedisLock's lock expires under its holder and is taken by another (shown happening), with fencing no stale write is accepted; RedLock too may be held twice when its holder had a bare quorum (predicted, not asserted)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/../safety/ci.inc';

$runs = rl_safety_ci('clock-jump');
$of = fn(string $mode, string $key) => array_sum(array_map(fn($r) => $r["mode"] === $mode ? $r[$key] : 0, $runs));
echo "RedisLock without fencing, overlapped: ", $of("redislock", "overlaps") > 0 ? "yes" : "no", "\n";
?>
--EXPECT--
exit: 0; a row for every mode with the fault: yes
fenced rows, stale writes accepted: 0
RedisLock without fencing, overlapped: yes
