--TEST--
Safety suite, CI's short schedule (seed 7; 8 to 10 after a run that showed nothing), fault server-pause: a server stopped (SIGSTOP) 1.5 s: RedLock's minority costs no failed call and no overlap; RedisLock's only node fails calls only while stopped
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/../safety/ci.inc';

// A run in which a row ran no critical section (its workers started after
// the pause, on a busy machine) shows nothing: run again with the next
// seed, up to 4 runs, each one not counted said in the log (rl_test_note).
$runs = rl_safety_ci('server-pause', null, fn(array $runs) => true, 4);
echo "RedLock: failed calls: ", array_sum(array_map(fn($r) => str_starts_with($r["mode"], "redlock") ? $r["failed_calls"] : 0, $runs)), "\n";
?>
--EXPECT--
exit: 0; a row for every mode with the fault: yes
fenced rows, stale writes accepted: 0
RedLock: failed calls: 0
