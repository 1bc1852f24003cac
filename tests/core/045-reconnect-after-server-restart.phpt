--TEST--
Redis restarted between calls: the next calls reconnect and succeed, and answer from the new server's data
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$server = new RlTestServer();
$port = $server->port();
$lock = new RedisLock($server->addr());
$ta = $lock->lock('a', 60000);
var_dump(is_string($ta));
var_dump($lock->acquireLock('held', 60));

echo "-- restart (data is lost)\n";
$server->restart();
var_dump($server->port() === $port);
$r = $server->client();
var_dump($r->keys('*'));

$tb = $lock->lock('b', 60000);                 // no exception
var_dump(is_string($tb), $r->get('lock:b') === $tb);
var_dump($lock->unlock('a', $ta));             // the key died with the old server
var_dump($lock->acquireLock('held', 60));      // re-entrant refresh fails: taken afresh
var_dump($r->exists('lock:held'));

echo "-- restart again, then the token API\n";
$server->restart();
$r = $server->client();
var_dump($lock->unlock('b', $tb));             // gone with the restart: false, no exception
$tc = $lock->lock('c', 60000);
var_dump($r->get('lock:c') === $tc);
var_dump($lock->unlock('c', $tc), $r->exists('lock:c'));
echo "our connections: ", $r->clientCount(), "\n";
?>
--EXPECT--
bool(true)
bool(true)
-- restart (data is lost)
bool(true)
array(0) {
}
bool(true)
bool(true)
bool(false)
bool(true)
int(1)
-- restart again, then the token API
bool(false)
bool(true)
bool(true)
int(0)
our connections: 1
