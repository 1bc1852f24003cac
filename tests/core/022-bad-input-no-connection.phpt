--TEST--
Bad input opens no connection to Redis (constructor and methods); the first good call does
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer();
$c = $srv->client();
$connections = fn() => (int)$c->info('stats')['total_connections_received'];
$start = $connections();   // our own client
$addr = $srv->addr();
$lock = new RedisLock($addr);
$plain = new RedisLock($addr, ['persistent' => false]);
$base = $connections();

$bad = [
    fn() => new RedisLock($addr, ['bogus' => 1]),
    fn() => new RedisLock($addr, ['timeout' => 0]),
    fn() => new RedisLock($addr, ['database' => -1]),
    fn() => new RedisLock($addr, ['prefix' => 5]),
    fn() => new RedisLock($addr, ['username' => 'u']),
    fn() => new RedisLock($addr, ['persistent' => false, 'drift_factor' => 0.1]),
    fn() => new RedisLock(['host' => '127.0.0.1', 'port' => $srv->port(), 'x' => 1]),
    fn() => new RedisLock("$addr:1"),
];
foreach ([$lock, $plain] as $l) {
    $bad[] = fn() => $l->acquireLock('');
    $bad[] = fn() => $l->acquireLock('t022', 0);
    $bad[] = fn() => $l->releaseLock('');
    $bad[] = fn() => $l->lock('t022', 0);
    $bad[] = fn() => $l->lock('t022', 1000, -1);
    $bad[] = fn() => $l->lock('', 1000);
    $bad[] = fn() => $l->unlock('t022', '');
    $bad[] = fn() => $l->unlock('', 'tok');
    $bad[] = fn() => $l->extend('t022', 'tok', -5);
}
$errors = [];
foreach ($bad as $f) {
    try {
        $f();
        $errors[] = 'none';
    } catch (Throwable $e) {
        $errors[] = get_class($e);
    }
}
var_dump(array_count_values($errors));
echo "connections made by bad input: ", $connections() - $base, "\n";
// Releasing a lock never taken needs no connection either.
var_dump($lock->releaseLock('t022'));
echo "connections after releaseLock of nothing: ", $connections() - $base, "\n";

// The first good call connects, once.
$t = $lock->lock('t022', 10000);
var_dump($lock->unlock('t022', $t));
echo "connections after a good lock/unlock: ", $connections() - $start, "\n";
$t = $plain->lock('t022', 10000);
var_dump($plain->unlock('t022', $t));
echo "connections after a second object's lock/unlock: ", $connections() - $start, "\n";
?>
--EXPECT--
array(2) {
  ["ValueError"]=>
  int(25)
  ["TypeError"]=>
  int(1)
}
connections made by bad input: 0
bool(false)
connections after releaseLock of nothing: 0
bool(true)
connections after a good lock/unlock: 1
bool(true)
connections after a second object's lock/unlock: 2
