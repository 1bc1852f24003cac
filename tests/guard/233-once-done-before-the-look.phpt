--TEST--
once(): a waiter that a done release took off the queue, but that looks again before reading its wake (its wait timed out first), returns ONCE_WAITED and does not take the lock: after a SIGKILLed rebuilder, the waiters that look together at the TTL's end make one takeover, not one each
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:g233', rl_derived_key('lock:g233', 'q'));
$queue = rl_derived_key('lock:g233', 'q');
// a holder of a long lock: the waiter looks again every 2 s at most (its
// recheck), a wake aside
$holder = new RedisLock(rl_test_server(0));
$t = $holder->lock('g233', 30000);
$child = rl_php_child_start('
    $l = new RedisLock(rl_test_server(0));
    $r = $l->once("g233", fn() => print("NO: rebuilt\n"), 10000, 10.0);
    echo [RedisLock::ONCE_TIMED_OUT => "timed out", RedisLock::ONCE_RAN => "ran", RedisLock::ONCE_WAITED => "waited"][$r], "\n";
');
var_dump(rl_wait_until(fn() => $r->cmd('LLEN', $queue) === 1, 30));
// what a done release does to the queue and the lock, without the wake the
// waiter would read: it finds itself off the queue when it looks
$r->del($queue, 'lock:g233');
[$exit, $out, $err] = $child->wait(30);
echo trim($out), $err, "\n";
var_dump($r->exists('lock:g233'));
?>
--EXPECT--
bool(true)
waited
int(0)
