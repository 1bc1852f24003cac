--TEST--
Re-entrancy after expiry: a lock that expired while "held" is taken afresh (new token, count 1); if another took it meanwhile, the old holder gets null
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$p = 'rl067-' . bin2hex(random_bytes(6)) . '-';
$server = rl_test_server(0);
$r = new RlTestRedis($server);
$lock = new RedisLock($server);
$other = new RedisLock($server);
$gone = fn(string $k) => rl_wait_until(fn() => $r->exists($k) === 0, 5.0);

echo "-- expired, free: taken afresh\n";
$t1 = $lock->lock("{$p}a", 100);
$lock->lock("{$p}a", 100);                           // held twice
var_dump($gone("lock:{$p}a"));
$t2 = $lock->lock("{$p}a", 60000);
var_dump(is_string($t2) && $t2 !== $t1, $r->get("lock:{$p}a") === $t2);
$ttl = $r->pttl("lock:{$p}a");
var_dump($ttl > 30000 && $ttl <= 60000);
var_dump($lock->unlock("{$p}a", $t1));               // the old token is dead
var_dump($r->get("lock:{$p}a") === $t2);
var_dump($lock->unlock("{$p}a", $t2), $r->exists("lock:{$p}a"));  // count was reset to 1

echo "-- expired, taken by another: null, and the other's lock is untouched\n";
$t1 = $lock->lock("{$p}b", 100);
var_dump($gone("lock:{$p}b"));
$to = $other->lock("{$p}b", 60000);
var_dump($lock->lock("{$p}b", 60000));
var_dump($lock->acquireLock("{$p}b", 60));
var_dump($lock->releaseLock("{$p}b"));               // not held any more
var_dump($lock->unlock("{$p}b", $t1));
var_dump($r->get("lock:{$p}b") === $to);
$ttl = $r->pttl("lock:{$p}b");
var_dump($ttl > 30000 && $ttl <= 60000);
var_dump($other->unlock("{$p}b", $to), $r->exists("lock:{$p}b"));

echo "-- acquireLock: expired while held, taken afresh\n";
var_dump($lock->acquireLock("{$p}c", 1));
$t1 = $r->get("lock:{$p}c");
var_dump($gone("lock:{$p}c"));
var_dump($lock->acquireLock("{$p}c", 60));
$t2 = $r->get("lock:{$p}c");
var_dump(is_string($t2) && $t2 !== $t1);
var_dump($lock->releaseLock("{$p}c"), $r->exists("lock:{$p}c"));
var_dump($r->keys("lock:$p*"));
?>
--EXPECT--
-- expired, free: taken afresh
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
int(0)
-- expired, taken by another: null, and the other's lock is untouched
bool(true)
NULL
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
int(0)
-- acquireLock: expired while held, taken afresh
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
array(0) {
}
