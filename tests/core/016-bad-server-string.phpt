--TEST--
Malformed server strings are ValueErrors naming $server, the address and what is wrong
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

foreach (['', 'host:', ':6379', 'host:abc', 'host:0', 'host:70000', 'host:65536', 'host:-1',
          'http://x:1', 'unix://relative', 'unix:relative', 'unix://', 'tcp://', 'tcp://:6379',
          '[::1', '[]:6379', '[::1]x', 'a:b:c', 'ho st:1'] as $server) {
    try {
        new RedisLock($server);
        echo "accepted: ", var_export($server, true), "\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address (""): server address is empty
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("host:"): port must be a number from 1 to 65535
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address (":6379"): host is empty
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("host:abc"): port must be a number from 1 to 65535
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("host:0"): port must be a number from 1 to 65535
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("host:70000"): port must be a number from 1 to 65535
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("host:65536"): port must be a number from 1 to 65535
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("host:-1"): port must be a number from 1 to 65535
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("http://x:1"): unknown scheme, expected tcp://, tls://, unix://, redis://, rediss://, valkey:// or valkeys://
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("unix://relative"): unix socket path must be absolute, as in unix:///run/redis.sock
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("unix:relative"): unix socket path must be absolute, as in unix:///run/redis.sock
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("unix://"): unix socket path must be absolute, as in unix:///run/redis.sock
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("tcp://"): host is empty
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("tcp://:6379"): host is empty
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("[::1"): malformed IPv6 address, expected [addr]:port
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("[]:6379"): malformed IPv6 address, expected [addr]:port
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("[::1]x"): expected ':' after ']'
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("a:b:c"): IPv6 addresses must be written as [addr]:port
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("ho st:1"): host contains '/' or a space
