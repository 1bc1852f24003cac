--TEST--
Safety suite, CI's short schedule (seed 7), faults cluster-failover and slot-migration, Cluster mode: no row broken, no overlap, no failed call
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/ci.inc';

foreach (['cluster-failover', 'slot-migration'] as $fault) {
    echo "-- $fault\n";
    $runs = rl_safety_ci($fault, 6.0);
    echo "overlaps: ", rl_safety_sum($runs, false, "overlaps"), "; failed calls: ", rl_safety_sum($runs, false, "failed_calls"), "\n";
}
?>
--EXPECT--
-- cluster-failover
exit: 0; a row for every mode with the fault: yes
rows broken: none
rows predicted to break something: 0
overlaps: 0; failed calls: 0
-- slot-migration
exit: 0; a row for every mode with the fault: yes
rows broken: none
rows predicted to break something: 0
overlaps: 0; failed calls: 0
