--TEST--
Safety suite, CI's short schedule (seed 7), fault holder-pause, Sentinel and Cluster modes: the paused holder writes past its validity (late writes), without fencing its write lands in another's section, with fencing the store refuses it; no holder believes it holds while another does
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/ci.inc';

$runs = rl_safety_ci('holder-pause');
echo "late writes: ", rl_safety_sum($runs, false, "late_writes") + rl_safety_sum($runs, true, "late_writes") > 0 ? "yes" : "no", "\n";
echo "without fencing, overlapped: ", rl_safety_sum($runs, false, "overlaps") > 0 ? "yes" : "no", "\n";
echo "with fencing, writes refused: ", rl_safety_sum($runs, true, "refused") > 0 ? "yes" : "no", "\n";
echo "holders that believed at once: ", rl_safety_sum($runs, false, "exclusion") + rl_safety_sum($runs, true, "exclusion"), "\n";
?>
--EXPECT--
exit: 0; a row for every mode with the fault: yes
rows broken: none
rows predicted to break something: 2
late writes: yes
without fencing, overlapped: yes
with fencing, writes refused: yes
holders that believed at once: 0
