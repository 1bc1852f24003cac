--TEST--
Safety suite, CI's short schedule (seed 7), fault none, Sentinel and Cluster modes: no row broken, no overlap, no failed call
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/ci.inc';

$runs = rl_safety_ci('none');
echo "overlaps: ", rl_safety_sum($runs, false, "overlaps") + rl_safety_sum($runs, true, "overlaps"), "; failed calls: ", rl_safety_sum($runs, false, "failed_calls") + rl_safety_sum($runs, true, "failed_calls"), "\n";
?>
--EXPECT--
exit: 0; a row for every mode with the fault: yes
rows broken: none
rows predicted to break something: 0
overlaps: 0; failed calls: 0
