--TEST--
Sentinel: all sentinels down, or none knowing the service, is a RedisLockConnectionException (code 14) listing each sentinel and why; a RedLock with such a group node still decides on its other nodes
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); require_once __DIR__ . '/../sentinel.inc'; rl_skip_unless_sentinel(); rl_skip_unless_servers(2); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';

$g = new RlTestSentinelGroup('mymaster');
$addrs = $g->sentinelAddrs();

$unknown = new RedisLock(['sentinels' => $addrs, 'service' => 'nosuch']);
try {
    $unknown->lock('s124', 1000);
} catch (RedisLockConnectionException $e) {
    echo $e->getCode(), ": ", $e->getMessage(), "\n";
}

$lock = new RedisLock(['sentinels' => $addrs, 'service' => 'mymaster']);
$t = $lock->lock('s124', 1000);
$lock->unlock('s124', $t);
$g->stopSentinels();
// the master is cached: sentinels are asked only when it fails
echo "cached master still used: ", var_export(is_string($t = $lock->lock('s124', 1000)), true), "\n";
$lock->unlock('s124', $t);

$fresh = new RedisLock(['sentinels' => $addrs, 'service' => 'other']);
try {
    $fresh->lock('s124', 1000);
} catch (RedisLockConnectionException $e) {
    echo $e->getCode(), ": ", $e->getMessage(), "\n";
}

// RedLock: the group node fails, the two plain nodes are a quorum of 3
$rl = new RedLock([['sentinels' => $addrs, 'service' => 'other'], rl_test_server(0), rl_test_server(1)], 10, 1);
$t = $rl->lock('s124c', 5000);
echo "RedLock without the group node: ", var_export(is_string($t), true), "\n";
$rl->unlock('s124c', $t);
$rl2 = new RedLock([['sentinels' => $addrs, 'service' => 'other'], rl_test_server(0), 'tcp://127.0.0.1:1'], 10, 1);
try {
    $rl2->lock('s124d', 5000);
} catch (RedisLockConnectionException $e) {
    echo $e->getCode(), ": ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
14: Redis node sentinel service "nosuch": no sentinel knows the master of "nosuch": %s: does not know this service; %s: does not know this service; %s: does not know this service
cached master still used: true
14: Redis node sentinel service "other": no sentinel knows the master of "other": 127.0.0.1:%d: connect: Connection refused; 127.0.0.1:%d: connect: Connection refused; 127.0.0.1:%d: connect: Connection refused
RedLock without the group node: true
%d: 2 of 3 Redis nodes failed (quorum is 2): sentinel service "other": no sentinel knows the master of "other": %s; 127.0.0.1:1: connect: Connection refused
