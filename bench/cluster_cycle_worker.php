<?php
/*
 * One side of bench/cluster_instructions.sh: starts a cluster (3 masters +
 * 3 replicas) and a standalone server, warms up 64 resources on MODE's
 * RedisLock ('cluster' or 'standalone'), then runs CYCLES lock + unlock
 * cycles over them. The script counts the instructions spent inside
 * RedisLock::lock() and ::unlock() under callgrind.
 *   php -d extension=modules/redislock.so bench/cluster_cycle_worker.php MODE CYCLES
 */
require __DIR__ . '/../tests/cluster.inc';

[, $mode, $cycles] = $argv;
$cluster = new RlTestCluster();
$standalone = new RlTestServer();
$lock = $mode === 'cluster' ? new RedisLock(['cluster' => $cluster->seeds()]) : new RedisLock($standalone->addr());
for ($i = 0; $i < 64 + (int)$cycles; $i++) {
    $res = 'bench-cluster-' . ($i % 64);
    $t = $lock->lock($res, 10000) ?? throw new RuntimeException("$res: not acquired");
    $lock->unlock($res, $t);
}
