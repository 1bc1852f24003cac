--TEST--
Nobody listening: RedisLockConnectionException naming 127.0.0.1:PORT, from every method that talks to Redis
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$port = rl_free_port();
$calls = [
    'lock' => fn($l) => $l->lock('t026', 1000),
    'lock+wait' => fn($l) => $l->lock('t026', 1000, 0.2),
    'acquireLock' => fn($l) => $l->acquireLock('t026', 1),
    'unlock' => fn($l) => $l->unlock('t026', 'tok'),
    'extend' => fn($l) => $l->extend('t026', 'tok', 1000),
];
foreach (["127.0.0.1:$port", ['host' => '127.0.0.1', 'port' => $port]] as $server) {
    foreach ([true, false] as $persistent) {
        $l = new RedisLock($server, ['persistent' => $persistent]);
        foreach ($calls as $what => $call) {
            try {
                $r = $call($l);
                echo "$what: returned ", var_export($r, true), "\n";
            } catch (RedisLockException $e) {
                $msg = $e->getMessage();
                echo "$what: ", get_class($e), ': ', str_replace((string)$port, 'PORT', $msg), "\n";
                if (!str_contains($msg, "127.0.0.1:$port")) {
                    echo "  the message does not name the node\n";
                }
            }
        }
        // Nothing held, so nothing to release and nothing to connect to.
        var_dump($l->releaseLock('t026'));
    }
}
?>
--EXPECT--
lock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
lock+wait: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
acquireLock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
unlock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
extend: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
bool(false)
lock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
lock+wait: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
acquireLock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
unlock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
extend: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
bool(false)
lock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
lock+wait: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
acquireLock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
unlock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
extend: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
bool(false)
lock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
lock+wait: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
acquireLock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
unlock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
extend: RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect: Connection refused
bool(false)
