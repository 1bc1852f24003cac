--TEST--
Safety suite, CI's short schedule (seed 7), fault partition-requests: what clients send to a node (RedisLock's, a minority of RedLock's) is held 1.5 s by a proxy, then delivered: no overlap; RedLock's calls do not fail
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/../safety/ci.inc';

$runs = rl_safety_ci('partition-requests');
echo "overlaps: ", rl_safety_sum($runs, false, "overlaps") + rl_safety_sum($runs, true, "overlaps"), "\n";
echo "RedLock: failed calls: ", array_sum(array_map(fn($r) => str_starts_with($r["mode"], "redlock") ? $r["failed_calls"] : 0, $runs)), "\n";
?>
--EXPECT--
exit: 0; a row for every mode with the fault: yes
fenced rows, stale writes accepted: 0
overlaps: 0
RedLock: failed calls: 0
