--TEST--
releaseLock() by an object that does not hold the resource never deletes it (nor does its destruction); the owner's release does
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$p = 'rl075-' . bin2hex(random_bytes(6)) . '-';
$server = rl_test_server(0);
$r = new RlTestRedis($server);
$owner = new RedisLock($server);
$stranger = new RedisLock($server);

echo "-- acquireLock by the owner\n";
var_dump($owner->acquireLock("{$p}a", 60));
$t = $r->get("lock:{$p}a");
var_dump($stranger->releaseLock("{$p}a"));          // not its lock: false, key kept
var_dump($r->get("lock:{$p}a") === $t);
var_dump($stranger->acquireLock("{$p}a", 60));      // and it cannot take it
var_dump($stranger->releaseLock("{$p}a"));          // a failed acquire does not make it an owner
var_dump($r->get("lock:{$p}a") === $t);

echo "-- same resource name, another prefix: another key\n";
$other = new RedisLock($server, ['prefix' => "{$p}other:"]);
var_dump($other->acquireLock('a', 60), $other->releaseLock('a'));
var_dump($r->get("lock:{$p}a") === $t);

echo "-- a stranger's destruction releases nothing\n";
unset($stranger);
var_dump($r->get("lock:{$p}a") === $t);

echo "-- held by a plain Redis client (not a RedisLock)\n";
$r->set("lock:{$p}b", 'someone-else', 'PX', 60000);
var_dump($owner->releaseLock("{$p}b"), $owner->acquireLock("{$p}b", 60), $owner->releaseLock("{$p}b"));
var_dump($r->get("lock:{$p}b"));

echo "-- the owner releases\n";
var_dump($owner->releaseLock("{$p}a"), $r->exists("lock:{$p}a"));
var_dump($owner->releaseLock("{$p}a"));             // once only

$r->del("lock:{$p}b");
var_dump($r->keys("lock:$p*"), $r->keys("$p*"));
?>
--EXPECT--
-- acquireLock by the owner
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
bool(true)
-- same resource name, another prefix: another key
bool(true)
bool(true)
bool(true)
-- a stranger's destruction releases nothing
bool(true)
-- held by a plain Redis client (not a RedisLock)
bool(false)
bool(false)
bool(false)
string(12) "someone-else"
-- the owner releases
bool(true)
int(0)
bool(false)
array(0) {
}
array(0) {
}
