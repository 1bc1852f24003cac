--TEST--
A \Redis subclass whose getPort() says 99999 or whose getHost() holds control bytes (ESC, a NUL; a NUL in a socket path too) is refused with a ValueError naming the host or the port, as a server string's would be (not a connect error later), by RedisLock and RedLock; the message holds no control byte
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
rl_skip_unless_phpredis();
?>
--EXTENSIONS--
redislock
redis
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

/** Looks connected to $host:$port; never connects. */
class T074Redis extends Redis
{
    public function __construct(private string $host, private int $port) {}
    public function getHost(): string { return $this->host; }
    public function getPort(): int { return $this->port; }
    public function getDbNum(): int { return 0; }
    public function getAuth(): mixed { return null; }
}

$s = new RlTestServer();
$cases = [
    'port 99999' => new T074Redis('127.0.0.1', 99999),
    'host with ESC' => new T074Redis("a\e]0;retitled\x07b", $s->port()),
    'tcp:// host with ESC' => new T074Redis("tcp://a\e[2Jb", $s->port()),
    'host with a NUL' => new T074Redis("127.0.0.1\0x", $s->port()),
    'socket path with a NUL' => new T074Redis("/tmp/t074\0.sock", 0),
];
foreach ($cases as $what => $redis) {
    foreach (['RedisLock' => fn() => new RedisLock($redis), 'RedLock' => fn() => new RedLock([$redis])] as $class => $make) {
        try {
            $l = $make();
            $l->lock('t074', 1000);
            echo "$what, $class: accepted\n";
        } catch (Throwable $e) {
            $m = $e->getMessage();
            echo "$what, $class: ", get_class($e), ': ', addcslashes($m, "\0..\37\177"), preg_match('/[\0-\37\177]/', $m) ? ' (CONTROL BYTES IN IT)' : '', "\n";
        }
    }
}
$l = new RedisLock(new T074Redis('127.0.0.1', $s->port()));
echo "a valid one: ", is_string($l->lock('t074', 1000)) ? 'locks' : 'DOES NOT LOCK', "\n";
?>
--EXPECT--
port 99999, RedisLock: ValueError: RedisLock::__construct(): Argument #1 ($server) is a Redis object connected to port 99999: the port must be from 1 to 65535
port 99999, RedLock: ValueError: RedLock::__construct(): Argument #1 ($servers) element 0 is a Redis object connected to port 99999: the port must be from 1 to 65535
host with ESC, RedisLock: ValueError: RedisLock::__construct(): Argument #1 ($server) is a Redis object whose host is not valid: host must be a name of letters, digits, '-', '.' and '_', or an IP address
host with ESC, RedLock: ValueError: RedLock::__construct(): Argument #1 ($servers) element 0 is a Redis object whose host is not valid: host must be a name of letters, digits, '-', '.' and '_', or an IP address
tcp:// host with ESC, RedisLock: ValueError: RedisLock::__construct(): Argument #1 ($server) is a Redis object whose host is not valid: host must be a name of letters, digits, '-', '.' and '_', or an IP address
tcp:// host with ESC, RedLock: ValueError: RedLock::__construct(): Argument #1 ($servers) element 0 is a Redis object whose host is not valid: host must be a name of letters, digits, '-', '.' and '_', or an IP address
host with a NUL, RedisLock: ValueError: RedisLock::__construct(): Argument #1 ($server) is a Redis object whose host is not valid: a NUL byte in it
host with a NUL, RedLock: ValueError: RedLock::__construct(): Argument #1 ($servers) element 0 is a Redis object whose host is not valid: a NUL byte in it
socket path with a NUL, RedisLock: ValueError: RedisLock::__construct(): Argument #1 ($server) is a Redis object whose socket path is not valid: a NUL byte in it
socket path with a NUL, RedLock: ValueError: RedLock::__construct(): Argument #1 ($servers) element 0 is a Redis object whose socket path is not valid: a NUL byte in it
a valid one: locks
