--TEST--
INI redislock.persistent=0: objects get private connections closed at destruction; option 'persistent' => true still pools
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--INI--
redislock.persistent=0
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

var_dump(ini_get('redislock.persistent'));
$server = new RlTestServer();
$r = $server->client();
$count = fn() => $r->clientCount();
$settle = fn(int $n) => rl_wait_until(fn() => $count() === $n, 5.0) ? $n : $count();
$received = fn() => (int)$r->info('stats')['total_connections_received'];

echo "-- INI off: a connection per object\n";
$start = $received();
$a = new RedisLock($server->addr());
$b = new RedisLock($server->addr());
$ta = $a->lock('a', 60000);
$tb = $b->lock('b', 60000);
var_dump($r->get('lock:a') === $ta, $r->get('lock:b') === $tb);
echo "clients: ", $count(), ", opened: ", $received() - $start, "\n";
var_dump($a->unlock('a', $ta));
unset($a);
echo "clients: ", $settle(1), "\n";
var_dump($b->unlock('b', $tb));
$b = null;
echo "clients: ", $settle(0), "\n";

echo "-- 10 objects one after another: 10 connections, none left open\n";
$start = $received();
for ($i = 0; $i < 10; $i++) {
    $l = new RedisLock($server->addr());
    var_dump($l->acquireLock("c$i", 60) && $l->releaseLock("c$i"));
}
unset($l);
echo "opened: ", $received() - $start, ", clients: ", $settle(0), "\n";

echo "-- option 'persistent' => true overrides the INI\n";
$start = $received();
for ($i = 0; $i < 5; $i++) {
    $l = new RedisLock($server->addr(), ['persistent' => true]);
    $t = $l->lock("d$i", 60000);
    $l->unlock("d$i", $t);
}
unset($l);
usleep(100000);
echo "opened: ", $received() - $start, ", clients: ", $count(), "\n";

echo "-- ini_set at run time is honoured by new objects\n";
ini_set('redislock.persistent', '1');
$start = $received();
for ($i = 0; $i < 5; $i++) {
    $l = new RedisLock($server->addr());
    $l->acquireLock("e$i", 60);
    $l->releaseLock("e$i");
}
unset($l);
echo "opened: ", $received() - $start, ", clients: ", $count(), "\n";
var_dump($r->keys('lock:*'));
?>
--EXPECT--
string(1) "0"
-- INI off: a connection per object
bool(true)
bool(true)
clients: 2, opened: 2
bool(true)
clients: 1
bool(true)
clients: 0
-- 10 objects one after another: 10 connections, none left open
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
opened: 10, clients: 0
-- option 'persistent' => true overrides the INI
opened: 1, clients: 1
-- ini_set at run time is honoured by new objects
opened: 0, clients: 1
array(0) {
}
