--TEST--
Re-entrancy, lock/unlock: the same object locking a resource it holds gets the same token with the TTL refreshed; unlock counts down, the key goes at the last unlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$p = 'rl066-' . bin2hex(random_bytes(6)) . '-';
$server = rl_test_server(0);
$r = new RlTestRedis($server);
$key = "lock:{$p}res";
$lock = new RedisLock($server);
$other = new RedisLock($server);

$t1 = $lock->lock("{$p}res", 2000);
var_dump(is_string($t1) && $r->get($key) === $t1);
$ttl = $r->pttl($key);
var_dump($ttl > 0 && $ttl <= 2000);
$t2 = $lock->lock("{$p}res", 60000);
var_dump($t2 === $t1, $r->get($key) === $t1);
$ttl = $r->pttl($key);
var_dump($ttl > 30000 && $ttl <= 60000);            // refreshed to the new TTL
var_dump($other->lock("{$p}res", 60000));            // not re-entrant for another object

echo "-- unlock counts down\n";
var_dump($lock->unlock("{$p}res", $t1));             // 2 -> 1
var_dump($r->get($key) === $t1);
var_dump($other->lock("{$p}res", 60000));
var_dump($lock->unlock("{$p}res", $t1));             // 1 -> 0
var_dump($r->exists($key));
var_dump($lock->unlock("{$p}res", $t1));             // nothing left

echo "-- a shorter re-lock also refreshes (to the shorter TTL)\n";
$t = $lock->lock("{$p}res", 60000);
var_dump($lock->lock("{$p}res", 5000) === $t);
$ttl = $r->pttl($key);
var_dump($ttl > 0 && $ttl <= 5000);
var_dump($lock->unlock("{$p}res", $t), $r->get($key) === $t);   // 2 -> 1

echo "-- acquireLock on a resource taken with lock(): the same hold, counted\n";
var_dump($lock->acquireLock("{$p}res", 60), $r->get($key) === $t);
var_dump($lock->releaseLock("{$p}res"), $r->get($key) === $t);  // 2 -> 1
var_dump($lock->unlock("{$p}res", $t), $r->exists($key));        // 1 -> 0

echo "-- a wrong token does not count down the hold\n";
$t = $lock->lock("{$p}res", 60000);
$lock->lock("{$p}res", 60000);
var_dump($lock->unlock("{$p}res", str_repeat('0', strlen($t))), $r->get($key) === $t);
var_dump($lock->unlock("{$p}res", $t), $r->get($key) === $t);
var_dump($lock->unlock("{$p}res", $t), $r->exists($key));
var_dump($r->keys("lock:$p*"));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
NULL
-- unlock counts down
bool(true)
bool(true)
NULL
bool(true)
int(0)
bool(false)
-- a shorter re-lock also refreshes (to the shorter TTL)
bool(true)
bool(true)
bool(true)
bool(true)
-- acquireLock on a resource taken with lock(): the same hold, counted
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
-- a wrong token does not count down the hold
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
array(0) {
}
