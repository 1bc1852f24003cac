--TEST--
Cluster: after CLUSTER FAILOVER and after a master is killed, the next calls follow the new map without a failed call once the cluster is up again; a lock held across them is reported as it is (kept when its replica had it)
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';

$c = new RlTestCluster();
$l = new RedisLock(['cluster' => $c->seeds()]);
$private = new RedisLock(['cluster' => $c->seeds()], ['persistent' => false]);

// a lock held across a manual failover; WAIT makes sure its replica has it
// (a long timeout: only a failure waits it out; a busy machine's replica
// may take longer than a short one)
$old = $c->masterFor('lock:c502');
$held = $l->lock('c502', 120000);
echo "replicated before the failover: ", (new RlTestRedis($old, null, null, 40.0))->cmd('WAIT', 1, 30000), "\n";
$new = $c->failover($old);
echo "new master for the slot: ", var_export($new !== $old && $c->masterFor('lock:c502') === $new, true), "\n";

$failed = 0;
foreach ([$l, $private] as $o) {
    try {
        for ($i = 0; $i < 50; $i++) {   // keys of every master, the failed-over one among them
            $t = $o->lock("c502-$i", 10000);
            $o->unlock("c502-$i", $t) || $failed++;
        }
    } catch (RedisLockException $e) {
        $failed++;
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
echo "calls failed after the failover: $failed\n";
echo "the held lock is still ours on the new master: ", var_export($c->cmd($new, 'GET', 'lock:c502') === $held, true), "\n";
var_dump($l->extend('c502', $held, 120000));
echo "replicated before the kill: ", (new RlTestRedis($new, null, null, 40.0))->cmd('WAIT', 1, 30000), "\n";

// kill the new master: its replica (the old master) is elected again
$after = $c->killMaster($new);
echo "elected: ", var_export($c->masterFor('lock:c502') === $after, true), "\n";
$failed = 0;
foreach ([$l, $private] as $o) {
    try {
        for ($i = 0; $i < 50; $i++) {
            $t = $o->lock("c502k-$i", 10000);
            $o->unlock("c502k-$i", $t) || $failed++;
        }
    } catch (RedisLockException $e) {
        $failed++;
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
echo "calls failed after the kill: $failed\n";
// the held lock: its replica had it (WAIT), so it survived; without that
// acknowledgement a lock may be lost in a failover (docs/topologies.md: Redis Cluster)
echo "held lock after the kill: ", var_export($c->cmd($after, 'GET', 'lock:c502') === $held, true), "\n";
var_dump($l->unlock('c502', $held));
$s = RedisLock::stats();
echo "redirections or refreshes counted: ", var_export($s['cluster_redirects'] + $s['cluster_map_refreshes'] >= 3, true), "\n";
?>
--EXPECT--
replicated before the failover: 1
new master for the slot: true
calls failed after the failover: 0
the held lock is still ours on the new master: true
bool(true)
replicated before the kill: 1
elected: true
calls failed after the kill: 0
held lock after the kill: true
bool(true)
redirections or refreshes counted: true
