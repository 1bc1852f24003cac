--TEST--
Option "database" out of range names the real range (0..2147483647); a "port" with a unix socket path in ["host"] is a ValueError
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$attempts = [
    'database PHP_INT_MAX' => fn() => new RedisLock(rl_test_server(0), ['database' => PHP_INT_MAX]),
    'database 2147483648' => fn() => new RedisLock(rl_test_server(0), ['database' => 2147483648]),
    'database -1' => fn() => new RedisLock(rl_test_server(0), ['database' => -1]),
    'RedLock database PHP_INT_MAX' => fn() => new RedLock([rl_test_server(0)], 200, 3, ['database' => PHP_INT_MAX]),
    'unix path with port "zz"' => fn() => new RedisLock(['host' => '/tmp/x.sock', 'port' => 'zz']),
    'unix path with port 6379' => fn() => new RedisLock(['host' => '/tmp/x.sock', 'port' => 6379]),
    'unix path with port null' => fn() => new RedisLock(['host' => '/tmp/x.sock', 'port' => null]),
    'RedLock element, unix path with port' => fn() => new RedLock([rl_test_server(0), ['host' => '/tmp/x.sock', 'port' => 1]]),
    'unix path alone' => fn() => new RedisLock(['host' => '/tmp/x.sock']),
    'database 2147483647' => fn() => new RedisLock(rl_test_server(0), ['database' => 2147483647]),
];
foreach ($attempts as $what => $f) {
    try {
        $f();
        echo "$what: accepted\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
database PHP_INT_MAX: ValueError: RedisLock::__construct(): Argument #2 ($options) option "database" must be between 0 and 2147483647
database 2147483648: ValueError: RedisLock::__construct(): Argument #2 ($options) option "database" must be between 0 and 2147483647
database -1: ValueError: RedisLock::__construct(): Argument #2 ($options) option "database" must be between 0 and 2147483647
RedLock database PHP_INT_MAX: ValueError: RedLock::__construct(): Argument #4 ($options) option "database" must be between 0 and 2147483647
unix path with port "zz": ValueError: RedisLock::__construct(): Argument #1 ($server) ["port"] must not be given with a unix socket path as ["host"]
unix path with port 6379: ValueError: RedisLock::__construct(): Argument #1 ($server) ["port"] must not be given with a unix socket path as ["host"]
unix path with port null: ValueError: RedisLock::__construct(): Argument #1 ($server) ["port"] must not be given with a unix socket path as ["host"]
RedLock element, unix path with port: ValueError: RedLock::__construct(): Argument #1 ($servers) element 1 ["port"] must not be given with a unix socket path as ["host"]
unix path alone: accepted
database 2147483647: accepted
