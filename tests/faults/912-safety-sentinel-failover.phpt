--TEST--
Safety suite, CI's short schedule (seed 7, 6 s runs), fault sentinel-failover: the replicas cut off, then SENTINEL FAILOVER: locks the old master granted alone are lost; with min_replicas no lock is held twice (the unacknowledged grants were released), with fencing no stale write is accepted
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); require __DIR__ . '/../sentinel.inc'; rl_skip_unless_sentinel(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/../safety/ci.inc';

$runs = rl_safety_ci('sentinel-failover', 6.0);
$of = fn(string $mode, string $key) => array_sum(array_map(fn($r) => $r["mode"] === $mode ? $r[$key] : 0, $runs));
echo "with min_replicas, overlaps: ", $of("sentinel+min_replicas", "overlaps"), "\n";
echo "failovers made the calls fail only while they lasted: ", $of("sentinel", "failed_quorum_up") + $of("sentinel+min_replicas", "failed_quorum_up") + $of("sentinel+fencing", "failed_quorum_up") === 0 ? "yes" : "no", "\n";
?>
--EXPECT--
exit: 0; a row for every mode with the fault: yes
fenced rows, stale writes accepted: 0
with min_replicas, overlaps: 0
failovers made the calls fail only while they lasted: yes
