--TEST--
unlock()/extend() after the TTL ran out never touch the next owner's lock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t010');

$a = new RedisLock(rl_test_server(0));
$b = new RedisLock(rl_test_server(0));

$ta = $a->lock('t010', 200);
var_dump(is_string($ta));
// Wait for Redis to expire a's lock.
var_dump(rl_wait_until(fn() => $r->exists('lock:t010') === 0, 10.0));

$tb = $b->lock('t010', 30000);
var_dump(is_string($tb) && $tb !== $ta);

echo "a, too late:\n";
var_dump($a->unlock('t010', $ta));
var_dump($a->extend('t010', $ta, 60000));
var_dump($r->get('lock:t010') === $tb);
$pttl = $r->pttl('lock:t010');
var_dump($pttl > 20000 && $pttl <= 30000);

echo "a tries to lock again: held by b\n";
var_dump($a->lock('t010', 30000));
var_dump($a->unlock('t010', $ta));
var_dump($r->get('lock:t010') === $tb);

echo "b releases:\n";
var_dump($b->unlock('t010', $tb));
var_dump($r->exists('lock:t010'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
a, too late:
bool(false)
bool(false)
bool(true)
bool(true)
a tries to lock again: held by b
NULL
bool(false)
bool(true)
b releases:
bool(true)
int(0)
