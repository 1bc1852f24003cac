--TEST--
Safety suite, CI's short schedule (seed 7, 6 s runs), faults cluster-failover and slot-migration: CLUSTER FAILOVER of the lock's master and its slot moved to another master and on, while the clients run: no overlap, no failed call (MOVED and ASK followed, a release during a migration made on the lock key alone)
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/../safety/ci.inc';

foreach (['cluster-failover', 'slot-migration'] as $fault) {
    echo "-- $fault\n";
    $runs = rl_safety_ci($fault, 6.0);
    echo "overlaps: ", rl_safety_sum($runs, false, "overlaps"), "; failed calls: ", rl_safety_sum($runs, false, "failed_calls"), "\n";
}
?>
--EXPECT--
-- cluster-failover
exit: 0; a row for every mode with the fault: yes
fenced rows, stale writes accepted: 0
overlaps: 0; failed calls: 0
-- slot-migration
exit: 0; a row for every mode with the fault: yes
fenced rows, stale writes accepted: 0
overlaps: 0; failed calls: 0
