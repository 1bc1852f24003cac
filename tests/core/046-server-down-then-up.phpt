--TEST--
Redis stopped: calls throw RedisLockConnectionException naming host:port; once it runs again calls work
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$server = new RlTestServer();
$port = (string)$server->port();
$lock = new RedisLock($server->addr());        // pooled connection, opened by the first call
$ta = $lock->lock('a', 60000);
var_dump(is_string($ta));
$fresh = new RedisLock($server->addr(), ['persistent' => false]);

$server->stop();
$try = function (string $what, callable $f) use ($port) {
    try {
        $res = $f();
        echo "$what: no exception: ", var_export($res, true), "\n";
    } catch (RedisLockException $e) {
        echo "$what: ", get_class($e), ": ", str_replace($port, 'PORT', $e->getMessage()), "\n";
    }
};
echo "-- server stopped\n";
$try('lock', fn() => $lock->lock('b', 60000));
$try('lock again', fn() => $lock->lock('b', 60000));
$try('unlock', fn() => $lock->unlock('a', $ta));
$try('acquireLock', fn() => $lock->acquireLock('c', 10));
$try('private lock', fn() => $fresh->lock('d', 60000));

echo "-- server running again on the same port\n";
$server->restart();
$r = $server->client();
$tb = $lock->lock('b', 60000);
var_dump(is_string($tb), $r->get('lock:b') === $tb);
var_dump($lock->acquireLock('c', 10), $r->exists('lock:c'));
$td = $fresh->lock('d', 60000);
var_dump($r->get('lock:d') === $td);
var_dump($lock->unlock('b', $tb), $lock->releaseLock('c'), $fresh->unlock('d', $td));
var_dump($r->keys('*'));
?>
--EXPECTF--
bool(true)
-- server stopped
lock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: %s
lock again: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: %s
unlock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: %s
acquireLock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: %s
private lock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: %s
-- server running again on the same port
bool(true)
bool(true)
bool(true)
int(1)
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
