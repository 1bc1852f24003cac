--TEST--
Safety suite, CI's short schedule (seed 7), fault holder-pause: the holder stopped (SIGSTOP) past its TTL: without fencing another client's section begins inside its own (shown happening); with fencing its stale write is refused, never accepted
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/../safety/ci.inc';

$runs = rl_safety_ci('holder-pause');
echo "without fencing, overlapped: ", rl_safety_sum($runs, false, "overlaps") > 0 ? "yes" : "no", "\n";
echo "with fencing, stale writes refused: ", rl_safety_sum($runs, true, "stale_refused") > 0 ? "yes" : "no", "\n";
?>
--EXPECT--
exit: 0; a row for every mode with the fault: yes
fenced rows, stale writes accepted: 0
without fencing, overlapped: yes
with fencing, stale writes refused: yes
