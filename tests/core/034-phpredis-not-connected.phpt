--TEST--
new RedisLock($redis) with a \Redis never connected is a ValueError naming $server
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
redis
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

function attempt(callable $f): void
{
    try {
        $l = $f();
        echo "accepted\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}

attempt(fn() => new RedisLock(new Redis()));
attempt(fn() => new RedisLock(new Redis(), ['prefix' => 'x:']));

// connect() failed: still not connected.
$failed = new Redis();
try {
    $failed->connect('127.0.0.1', rl_free_port(), 1.0);
} catch (RedisException $e) {
    echo "phpredis: ", get_class($e), "\n";
}
attempt(fn() => new RedisLock($failed));

// Connected: fine.
$ok = new Redis();
$ok->connect(rl_test_host(), rl_test_port(0));
$l = new RedisLock($ok);
var_dump($l->acquireLock('t034', 5), $l->releaseLock('t034'));
?>
--EXPECT--
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a connected Redis object
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a connected Redis object
phpredis: RedisException
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a connected Redis object
bool(true)
bool(true)
