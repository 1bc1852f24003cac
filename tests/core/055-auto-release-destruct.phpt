--TEST--
auto_release on destruction (unset, = null, end of scope, reassignment); 'auto_release' => false keeps the key with its TTL
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$p = 'rl055-' . bin2hex(random_bytes(6)) . '-';
$server = rl_test_server(0);
$r = new RlTestRedis($server);
$exists = fn(string $res) => $r->exists("lock:$p$res");

echo "-- unset\n";
$l = new RedisLock($server);
$l->lock("{$p}a", 60000);
$l->acquireLock("{$p}b", 60);
$l->lock("{$p}c", 60000);
$l->lock("{$p}c", 60000);                      // re-entrant, held twice
var_dump($exists('a') + $exists('b') + $exists('c'));
unset($l);
var_dump($exists('a') + $exists('b') + $exists('c'));

echo "-- = null\n";
$l = new RedisLock($server);
$l->lock("{$p}d", 60000);
var_dump($exists('d'));
$l = null;
var_dump($exists('d'));

echo "-- end of a function's scope\n";
function critical(string $server, string $res): void
{
    $l = new RedisLock($server);
    var_dump(is_string($l->lock($res, 60000)));
}                                              // no unlock: the scope ends
critical($server, "{$p}e");
var_dump($exists('e'));

echo "-- reassignment destroys the old object\n";
$l = new RedisLock($server);
$l->acquireLock("{$p}f", 60);
$l = new RedisLock($server);
var_dump($exists('f'));
$l = null;

echo "-- released explicitly: destruction has nothing left to do\n";
$l = new RedisLock($server);
$t = $l->lock("{$p}g", 60000);
var_dump($l->unlock("{$p}g", $t));
$other = new RedisLock($server);
$tg = $other->lock("{$p}g", 60000);
unset($l);
var_dump($r->get("lock:{$p}g") === $tg);       // the other owner's lock is untouched

echo "-- expired and taken by another: destruction does not delete the new owner's key\n";
$l = new RedisLock($server);
$l->lock("{$p}h", 100);
rl_wait_until(fn() => $exists('h') === 0, 5.0);
$th = $other->lock("{$p}h", 60000);
unset($l);
var_dump($r->get("lock:{$p}h") === $th);
unset($other);
var_dump($exists('g') + $exists('h'));

echo "-- 'auto_release' => false: the key stays, with its TTL\n";
$l = new RedisLock($server, ['auto_release' => false]);
$ti = $l->lock("{$p}i", 60000);
var_dump($l->acquireLock("{$p}j", 30));
unset($l);
var_dump($r->get("lock:{$p}i") === $ti);
$ttl = $r->pttl("lock:{$p}i");
var_dump($ttl > 30000 && $ttl <= 60000);
$ttl = $r->pttl("lock:{$p}j");
var_dump($ttl > 10000 && $ttl <= 30000);
// and they are still locked for everybody else
var_dump((new RedisLock($server))->lock("{$p}i", 1000));

$r->del("lock:{$p}i", "lock:{$p}j");
var_dump($r->keys("lock:$p*"));
?>
--EXPECT--
-- unset
int(3)
int(0)
-- = null
int(1)
int(0)
-- end of a function's scope
bool(true)
int(0)
-- reassignment destroys the old object
int(0)
-- released explicitly: destruction has nothing left to do
bool(true)
bool(true)
-- expired and taken by another: destruction does not delete the new owner's key
bool(true)
int(0)
-- 'auto_release' => false: the key stays, with its TTL
bool(true)
bool(true)
bool(true)
bool(true)
NULL
array(0) {
}
