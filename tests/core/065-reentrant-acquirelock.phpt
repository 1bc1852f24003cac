--TEST--
Re-entrancy, acquireLock/releaseLock: the same object taking a resource it holds gets true, counted, TTL refreshed; the key goes at the last release
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$p = 'rl065-' . bin2hex(random_bytes(6)) . '-';
$server = rl_test_server(0);
$r = new RlTestRedis($server);
$key = "lock:{$p}res";
$lock = new RedisLock($server);
$other = new RedisLock($server);

echo "-- twice, released twice\n";
var_dump($lock->acquireLock("{$p}res", 2));
$token = $r->get($key);
var_dump($lock->acquireLock("{$p}res", 60));       // re-entrant, TTL refreshed to 60 s
var_dump($r->get($key) === $token);               // same lock, same token
$ttl = $r->pttl($key);
var_dump($ttl > 30000 && $ttl <= 60000);
var_dump($other->acquireLock("{$p}res", 60));      // another object is not re-entrant
var_dump($lock->releaseLock("{$p}res"));           // 2 -> 1
var_dump($r->get($key) === $token);
var_dump($other->acquireLock("{$p}res", 60));
var_dump($lock->releaseLock("{$p}res"));           // 1 -> 0: deleted
var_dump($r->exists($key));
var_dump($lock->releaseLock("{$p}res"));           // no longer held
var_dump($other->acquireLock("{$p}res", 60), $other->releaseLock("{$p}res"));

echo "-- three times\n";
for ($i = 0; $i < 3; $i++) {
    var_dump($lock->acquireLock("{$p}res", 60));
}
$token = $r->get($key);
for ($i = 0; $i < 3; $i++) {
    var_dump($lock->releaseLock("{$p}res"), $r->get($key) === $token);
}
var_dump($r->exists($key));

echo "-- the count is per resource\n";
var_dump($lock->acquireLock("{$p}x", 60), $lock->acquireLock("{$p}y", 60), $lock->acquireLock("{$p}x", 60));
var_dump($lock->releaseLock("{$p}y"), $r->exists("lock:{$p}y"), $r->exists("lock:{$p}x"));
var_dump($lock->releaseLock("{$p}x"), $r->exists("lock:{$p}x"));
var_dump($lock->releaseLock("{$p}x"), $r->exists("lock:{$p}x"));
var_dump($r->keys("lock:$p*"));
?>
--EXPECT--
-- twice, released twice
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
int(0)
bool(false)
bool(true)
bool(true)
-- three times
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
int(0)
-- the count is per resource
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
int(1)
bool(true)
int(1)
bool(true)
int(0)
array(0) {
}
