--TEST--
RedisLock and RedLock cannot be cloned (Error) or serialized/unserialized (Exception)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t039');

$lock = new RedisLock(rl_test_server(0));
$red = new RedLock([rl_test_server(0)]);
$t = $lock->lock('t039', 30000);

$attempts = [
    'clone RedisLock' => fn() => clone $lock,
    'clone RedLock' => fn() => clone $red,
    'serialize RedisLock' => fn() => serialize($lock),
    'serialize RedLock' => fn() => serialize($red),
    'serialize in an array' => fn() => serialize(['x' => $lock]),
    'unserialize RedisLock' => fn() => unserialize('O:9:"RedisLock":0:{}'),
    'unserialize RedLock' => fn() => unserialize('O:7:"RedLock":0:{}'),
    'unserialize C: RedisLock' => fn() => unserialize('C:9:"RedisLock":0:{}'),
];
foreach ($attempts as $what => $f) {
    try {
        $x = $f();
        echo "$what: got ", get_debug_type($x), "\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// The original still works.
var_dump($lock->unlock('t039', $t));
var_dump($r->exists('lock:t039'));
?>
--EXPECT--
clone RedisLock: Error: Trying to clone an uncloneable object of class RedisLock
clone RedLock: Error: Trying to clone an uncloneable object of class RedLock
serialize RedisLock: Exception: Serialization of 'RedisLock' is not allowed
serialize RedLock: Exception: Serialization of 'RedLock' is not allowed
serialize in an array: Exception: Serialization of 'RedisLock' is not allowed
unserialize RedisLock: Exception: Unserialization of 'RedisLock' is not allowed
unserialize RedLock: Exception: Unserialization of 'RedLock' is not allowed
unserialize C: RedisLock: Exception: Unserialization of 'RedisLock' is not allowed
bool(true)
int(0)
