--TEST--
Waiting: max_execution_time bounds a wait; a waiter that dies mid-wait leaves nothing that outlives its wait, and blocks nobody
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$holder = new RedisLock(rl_test_server(0));
$t = $holder->lock('rl206', 30000);

// max_execution_time = 1: a 20 s wait ends with the request's time
[$exit, $out] = rl_php_child(<<<'PHP'
$l = new RedisLock(rl_test_server(0));
$t = $l->lock('rl206', 1000, 20.0);
// the wait ends with the request's budget, counted from the request's start
printf("%s, %.1f s into the request\n", var_export($t, true), microtime(true) - $_SERVER['REQUEST_TIME_FLOAT']);
PHP, ['max_execution_time' => '1']);
// valgrind (and a loaded CI machine) may wake the child late: allow more there
// (no regex: PCRE JIT reads are noise under valgrind)
$late = rl_under_valgrind() ? 2.5 : 1.25;
$at = sscanf(trim($out), 'NULL, %f s into the request');
echo $at !== null && $at[0] !== null && $at[0] >= 0.9 && $at[0] <= $late
    ? "NULL, within the request's 1 s budget" : "unexpected: " . trim($out), "\n";

// A waiter killed while blocked: its queue entry outlives it only until its
// wait would have ended, and another waiter still gets the lock soon
// after the release even if the dead one was woken in its place.
// Its wait must outlast the live waiter's start (slow under valgrind), or its
// entry would expire before the live one queues behind it.
$deadWait = rl_under_valgrind() ? 10.0 : 2.0;
$dead = rl_php_child_start(<<<PHP
\$l = new RedisLock(rl_test_server(0));
echo "waiting\\n";
\$l->lock('rl206', 1000, $deadWait);
PHP);
rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key("lock:rl206", "q")) === 1, 30);
$dead->kill();
$live = rl_php_child_start(<<<'PHP'
$l = new RedisLock(rl_test_server(0));
$t = $l->lock('rl206', 1000, 10.0);
echo $t ? "got it at " . hrtime(true) : "null", "\n";
$l->unlock('rl206', $t);
PHP);
rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key("lock:rl206", "q")) === 2, 30);
$holder->unlock('rl206', $t);
$releasedAt = hrtime(true);
[, $out] = $live->wait(30);
preg_match('/got it at (\d+)/', $out, $m);
$late = ((int)($m[1] ?? 0) - $releasedAt) / 1e6;
echo "live waiter got it: ", isset($m[1]) ? 'yes' : "no: $out", "\n";
echo "despite the dead one: ", $late < (rl_under_valgrind() ? 1000 : 400) ? 'yes' : "no ($late ms)", "\n";
rl_wait_until(fn() => count($r->keys('lock:rl206*')) === 0, $deadWait + 5);
echo "keys left once the dead one's wait is over: ", count($r->keys('lock:rl206*')), "\n";
?>
--EXPECTF--
NULL, within the request's 1 s budget
live waiter got it: yes
despite the dead one: yes
keys left once the dead one's wait is over: 0
