--TEST--
releaseLock() after the TTL ran out never deletes the next owner's lock; acquireLock() after expiry takes a fresh lock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t011');

$a = new RedisLock(rl_test_server(0));
$b = new RedisLock(rl_test_server(0));

var_dump($a->acquireLock('t011', 1));
$ta = $r->get('lock:t011');
var_dump(rl_wait_until(fn() => $r->exists('lock:t011') === 0, 10.0));

var_dump($b->acquireLock('t011', 30));
$tb = $r->get('lock:t011');
var_dump($tb !== $ta);

echo "a releases too late:\n";
var_dump($a->releaseLock('t011'));
var_dump($r->get('lock:t011') === $tb);
var_dump($a->acquireLock('t011', 30));
var_dump($r->get('lock:t011') === $tb);

echo "b releases, then a's old lock is no help and a acquires anew:\n";
var_dump($b->releaseLock('t011'));
var_dump($r->exists('lock:t011'));
var_dump($a->acquireLock('t011', 1));
$ta2 = $r->get('lock:t011');
var_dump($ta2 !== $ta && $ta2 !== $tb);
var_dump(rl_wait_until(fn() => $r->exists('lock:t011') === 0, 10.0));
// a still thinks it holds the lock: its re-acquire must not count on the expired key.
var_dump($a->acquireLock('t011', 30));
$ta3 = $r->get('lock:t011');
var_dump(is_string($ta3));
var_dump($b->acquireLock('t011', 30));
var_dump($a->releaseLock('t011'));
var_dump($r->exists('lock:t011'));
var_dump($a->releaseLock('t011'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
a releases too late:
bool(false)
bool(true)
bool(false)
bool(true)
b releases, then a's old lock is no help and a acquires anew:
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
int(0)
bool(false)
