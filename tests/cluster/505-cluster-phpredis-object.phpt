--TEST--
Cluster: a connected phpredis \RedisCluster as the server: its masters are the seeds, the extension talks on its own connections; as a RedLock node too
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); rl_skip_unless_phpredis('RedisCluster'); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';

$c = new RlTestCluster();
$rc = new RedisCluster(null, [$c->seeds()[0]], 2.0, 2.0);
$l = new RedisLock($rc);
$t = $l->lock('c505', 10000);
echo "locked, seen through phpredis: ", var_export(is_string($t) && $rc->get('lock:c505') === $t, true), "\n";
var_dump($l->unlock('c505', $t));
$rl = new RedLock([$rc, rl_test_server(0), rl_test_server(1)]);
$t = $rl->lock('c505r', 10000);
echo "RedLock with a RedisCluster node: ", var_export(is_string($t) && $rc->get('lock:c505r') === $t, true), "\n";
var_dump($rl->unlock('c505r', $t));
try {
    new RedisLock(new RedisCluster(null, ['127.0.0.1:' . rl_free_port()], 0.2, 0.2));
} catch (Throwable $e) {
    echo "phpredis itself refuses a cluster it cannot reach: ", get_class($e), "\n";
}
?>
--EXPECT--
locked, seen through phpredis: true
bool(true)
RedLock with a RedisCluster node: true
bool(true)
phpredis itself refuses a cluster it cannot reach: RedisClusterException
