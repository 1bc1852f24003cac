--TEST--
Waiting: max_execution_time bounds a wait; a waiter that dies mid-wait leaves nothing that outlives its wait, and blocks nobody
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/redislock_test.inc';

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
echo trim($out), "\n";

// A waiter killed while blocked: its queue entry outlives it only until its
// wait would have ended (2 s), and another waiter still gets the lock soon
// after the release even if the dead one was woken in its place.
$dead = rl_php_child_start(<<<'PHP'
$l = new RedisLock(rl_test_server(0));
echo "waiting\n";
$l->lock('rl206', 1000, 2.0);
PHP);
rl_wait_until(fn() => $r->cmd('LLEN', "lock:rl206\0q") === 1, 30);
$dead->kill();
$live = rl_php_child_start(<<<'PHP'
$l = new RedisLock(rl_test_server(0));
$t = $l->lock('rl206', 1000, 10.0);
echo $t ? "got it at " . hrtime(true) : "null", "\n";
$l->unlock('rl206', $t);
PHP);
rl_wait_until(fn() => $r->cmd('LLEN', "lock:rl206\0q") === 2, 30);
$holder->unlock('rl206', $t);
$releasedAt = hrtime(true);
[, $out] = $live->wait(30);
preg_match('/got it at (\d+)/', $out, $m);
$late = ((int)($m[1] ?? 0) - $releasedAt) / 1e6;
echo "live waiter got it: ", isset($m[1]) ? 'yes' : "no: $out", "\n";
echo "despite the dead one: ", $late < (rl_under_valgrind() ? 1000 : 400) ? 'yes' : "no ($late ms)", "\n";
rl_wait_until(fn() => count($r->keys('lock:rl206*')) === 0, 5);
echo "keys left once the dead one's wait is over: ", count($r->keys('lock:rl206*')), "\n";
?>
--EXPECTF--
NULL, %r(0\.9|1\.[0-2])%r s into the request
live waiter got it: yes
despite the dead one: yes
keys left once the dead one's wait is over: 0
