--TEST--
Option 'persistent' => false: each object has its own connection, closed when the object is destroyed
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$server = new RlTestServer();
$r = $server->client();
$count = fn() => $r->clientCount();
$settle = fn(int $n) => rl_wait_until(fn() => $count() === $n, 5.0) ? $n : $count();
$received = fn() => (int)$r->info('stats')['total_connections_received'];
$start = $received();

echo "-- three private objects at once\n";
$locks = [];
for ($i = 0; $i < 3; $i++) {
    $locks[$i] = new RedisLock($server->addr(), ['persistent' => false]);
    $t = $locks[$i]->lock("p$i", 60000);
    var_dump($r->get("lock:p$i") === $t);
}
echo "clients: ", $count(), ", opened: ", $received() - $start, "\n";

echo "-- each destroyed object closes its own connection\n";
var_dump($locks[1]->unlock('p1', $r->get('lock:p1')));
unset($locks[1]);
echo "clients: ", $settle(2), "\n";
$locks = [];                      // destroys the other two (auto_release deletes their keys first)
echo "clients: ", $settle(0), "\n";
var_dump($r->keys('lock:*'));

echo "-- one object, many calls: one connection\n";
$l = new RedisLock($server->addr(), ['persistent' => false]);
$start = $received();
for ($i = 0; $i < 20; $i++) {
    $t = $l->lock('q', 60000);
    $l->unlock('q', $t);
}
echo "opened: ", $received() - $start, ", clients: ", $count(), "\n";
unset($l);
echo "clients: ", $settle(0), "\n";

echo "-- the default (persistent) stays open after destruction\n";
$l = new RedisLock($server->addr());
$l->acquireLock('x', 60);
$l->releaseLock('x');
unset($l);
usleep(100000);
echo "clients: ", $count(), "\n";
$l = new RedisLock($server->addr(), ['persistent' => false]);
$l->acquireLock('y', 60);
echo "clients: ", $count(), "\n";
unset($l);
echo "clients: ", $settle(1), "\n";
var_dump($r->keys('lock:*'));
?>
--EXPECT--
-- three private objects at once
bool(true)
bool(true)
bool(true)
clients: 3, opened: 3
-- each destroyed object closes its own connection
bool(true)
clients: 2
clients: 0
array(0) {
}
-- one object, many calls: one connection
opened: 1, clients: 1
clients: 0
-- the default (persistent) stays open after destruction
clients: 1
clients: 2
clients: 1
array(0) {
}
