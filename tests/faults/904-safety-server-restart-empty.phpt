--TEST--
Safety suite, CI's short schedule (seed 7), fault server-restart-empty: a restart without persistence (RedLock: a minority down, one of the holder's nodes restarts, the minority comes back empty): as predicted, overlaps allowed, no stale write accepted by the fenced store
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/../safety/ci.inc';

$runs = rl_safety_ci('server-restart-empty');

?>
--EXPECT--
exit: 0; a row for every mode with the fault: yes
fenced rows, stale writes accepted: 0

