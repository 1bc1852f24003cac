--TEST--
Cluster: waiters are woken by the release, not by their recheck: lock(), lockShared(), acquirePermit(), lockMany(), once() and watch() on a master other than the deadlock records' (their blocking reads go to the master of the key's slot); a waiter blocked while its slot moves to another master, and while its master fails over, is woken there
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); rl_skip_unless_servers(1); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
require __DIR__ . '/../woken.inc';

$c = new RlTestCluster();
$make = 'new RedisLock(' . var_export(['cluster' => [$c->seeds()[0]]], true) . ', $o)';
// the deadlock records of the prefix "lock:" live in one slot: a resource
// on another master shows whether the wait's read follows its own key
$records = $c->masterFor("lock:\0waits");
$pick = function (string $stem, ?string $not = null) use ($c, $records): string {
    for ($i = 0; ; $i++) {
        $m = $c->masterFor("lock:$stem-$i");
        if ($m !== $records && $m !== $not && $c->masterFor("lock:$stem-$i-other") !== $m) {
            return "$stem-$i";
        }
    }
};
foreach (['lock', 'lockShared', 'acquirePermit', 'lockMany', 'once', 'watch'] as $kind) {
    $res = $pick("w512$kind");
    rl_woken_round($make, $kind, $res, [$c->node($c->masterFor("lock:$res"))->client()]);
}

echo "-- its slot moves to another master while it waits\n";
$res = $pick('w512mig');
$from = $c->masterFor("lock:$res");
$to = current(array_diff($c->masters(), [$from]));
rl_woken_round($make, 'lock', $res, [$c->node($from)->client()],
    fn() => $c->migrateSlot($c->slotOf("lock:$res"), $from, $to));
echo "served by the new master: ", $c->masterFor("lock:$res") === $to ? 'yes' : 'no', "\n";

echo "-- its master fails over while it waits\n";
$res = $pick('w512fo');
$old = $c->masterFor("lock:$res");
$new = null;
rl_woken_round($make, 'lock', $res, [$c->node($old)->client()], function () use ($c, $old, &$new) {
    $new = $c->failover($old);
});
echo "served by the promoted replica: ", $c->masterFor("lock:$res") === $new ? 'yes' : 'no', "\n";
?>
--EXPECT--
lock: woken
lockShared: woken
acquirePermit: woken
lockMany: woken
once: woken
watch: woken
-- its slot moves to another master while it waits
lock: woken
served by the new master: yes
-- its master fails over while it waits
lock: woken
served by the promoted replica: yes
