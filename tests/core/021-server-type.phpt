--TEST--
$server of a wrong type is a TypeError naming Redis|RedisCluster|string|array and the given type
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

// Not a \Redis, though it has the methods RedisLock would ask one for.
class LooksLikeRedis
{
    public function getHost() { return '127.0.0.1'; }
    public function getPort() { return 6379; }
    public function getDbNum() { return 0; }
    public function getAuth() { return null; }
}

foreach ([6379, 1.5, true, null, new stdClass, new LooksLikeRedis, new ArrayObject([]), fopen('php://memory', 'r')] as $server) {
    try {
        new RedisLock($server);
        echo get_debug_type($server), ": accepted\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
TypeError: RedisLock::__construct(): Argument #1 ($server) must be of type Redis|RedisCluster|string|array, int given
TypeError: RedisLock::__construct(): Argument #1 ($server) must be of type Redis|RedisCluster|string|array, float given
TypeError: RedisLock::__construct(): Argument #1 ($server) must be of type Redis|RedisCluster|string|array, bool given
TypeError: RedisLock::__construct(): Argument #1 ($server) must be of type Redis|RedisCluster|string|array, null given
TypeError: RedisLock::__construct(): Argument #1 ($server) must be of type Redis|RedisCluster|string|array, stdClass given
TypeError: RedisLock::__construct(): Argument #1 ($server) must be of type Redis|RedisCluster|string|array, LooksLikeRedis given
TypeError: RedisLock::__construct(): Argument #1 ($server) must be of type Redis|RedisCluster|string|array, ArrayObject given
TypeError: RedisLock::__construct(): Argument #1 ($server) must be of type Redis|RedisCluster|string|array, resource given
