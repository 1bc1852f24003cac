--TEST--
Malformed server arrays are ValueErrors naming $server and the key
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$cases = [
    'missing host' => ['port' => 6379],
    'empty array' => [],
    'empty host' => ['host' => '', 'port' => 6379],
    'host as int' => ['host' => 127, 'port' => 6379],
    'port as string' => ['host' => '127.0.0.1', 'port' => '6379'],
    'port as float' => ['host' => '127.0.0.1', 'port' => 6379.0],
    'port 0' => ['host' => '127.0.0.1', 'port' => 0],
    'port -1' => ['host' => '127.0.0.1', 'port' => -1],
    'port 65536' => ['host' => '127.0.0.1', 'port' => 65536],
    'extra key' => ['host' => '127.0.0.1', 'port' => 6379, 'timeout' => 1],
    'list' => ['127.0.0.1', 6379],
    'host with a slash' => ['host' => 'tcp://127.0.0.1', 'port' => 6379],
    'host with a space' => ['host' => 'my host', 'port' => 6379],
];
foreach ($cases as $what => $server) {
    try {
        new RedisLock($server);
        echo "$what: accepted\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
missing host: ValueError: RedisLock::__construct(): Argument #1 ($server) ["host"] must be a non-empty string
empty array: ValueError: RedisLock::__construct(): Argument #1 ($server) ["host"] must be a non-empty string
empty host: ValueError: RedisLock::__construct(): Argument #1 ($server) ["host"] must be a non-empty string
host as int: ValueError: RedisLock::__construct(): Argument #1 ($server) ["host"] must be a non-empty string
port as string: ValueError: RedisLock::__construct(): Argument #1 ($server) ["port"] must be an int from 1 to 65535
port as float: ValueError: RedisLock::__construct(): Argument #1 ($server) ["port"] must be an int from 1 to 65535
port 0: ValueError: RedisLock::__construct(): Argument #1 ($server) ["port"] must be an int from 1 to 65535
port -1: ValueError: RedisLock::__construct(): Argument #1 ($server) ["port"] must be an int from 1 to 65535
port 65536: ValueError: RedisLock::__construct(): Argument #1 ($server) ["port"] must be an int from 1 to 65535
extra key: ValueError: RedisLock::__construct(): Argument #1 ($server) must be an array with only the keys "host" and "port"
list: ValueError: RedisLock::__construct(): Argument #1 ($server) must be an array with only the keys "host" and "port"
host with a slash: ValueError: RedisLock::__construct(): Argument #1 ($server) ["host"] must be a host name or address
host with a space: ValueError: RedisLock::__construct(): Argument #1 ($server) ["host"] must be a host name or address
