--TEST--
Sentinel and Cluster with min_replicas: looking up the master (a stalled sentinel) or the slot map (a stalled seed) is bounded by 'timeout', not by 'timeout' plus 'replica_timeout' (that longer bound is the lock command's, which waits for replicas)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

// A SIGSTOPped server: the kernel accepts the connection, nobody answers.
$stalled = new RlTestServer();
$port = (string)$stalled->port();
$stalled->pause();
$options = ['timeout' => 0.2, 'min_replicas' => 1, 'replica_timeout' => 1.0, 'persistent' => false];
$show = function (callable $f) use ($port) {
    try {
        $f();
        echo "no exception\n";
    } catch (RedisLockException $e) {
        echo get_class($e), ' ', $e->getCode(), ': ', str_replace($port, 'PORT', $e->getMessage()), "\n";
    }
};
$show(fn() => (new RedisLock(['sentinels' => [$stalled->addr()], 'service' => 'm127'], $options))->lock('r127', 1000));
$show(fn() => (new RedisLock(['cluster' => [$stalled->addr()]], $options))->lock('r127', 1000));
$stalled->resume();
?>
--EXPECT--
RedisLockConnectionException 14: Redis node sentinel service "m127": no sentinel knows the master of "m127": 127.0.0.1:PORT: timed out: no reply within 200 ms
RedisLockConnectionException 15: Redis node cluster 127.0.0.1:PORT: no node answered with a slot map covering every slot: 127.0.0.1:PORT: timed out: no reply within 200 ms
