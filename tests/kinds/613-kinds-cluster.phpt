--TEST--
Cluster: fencing, shared locks and semaphores on a 3-master cluster: every key of a resource (lock, fence counter, shared holders, queue) in the lock key's slot, routed to its master; the kinds behave as on one node
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
require __DIR__ . '/../timing.inc';

$c = new RlTestCluster(3, 0);
$seeds = $c->seeds();
$a = new RedisLock(['cluster' => $seeds], ['fencing' => true]);
$b = new RedisLock(['cluster' => $seeds]);
$x = new RedisLock(['cluster' => $seeds]);
$n = rl_under_valgrind() ? 6 : 40;
$ok = ['fencing' => 0, 'shared' => 0, 'permit' => 0];
$masters = [];
for ($i = 0; $i < $n; $i++) {
    // fencing: the counter next to the lock, numbers one after another
    $t = $a->lock("c613f-$i", 5000);
    $f1 = $a->fencingToken("c613f-$i");
    $a->unlock("c613f-$i", $t);
    $t = $a->lock("c613f-$i", 5000);
    $f2 = $a->fencingToken("c613f-$i");
    $fkey = rl_derived_key("lock:c613f-$i", 'f');
    $m = $c->masterFor("lock:c613f-$i");
    $masters[$m] = true;
    $ok['fencing'] += $f1 === 1 && $f2 === 2 && $c->slotOf($fkey) === $c->slotOf("lock:c613f-$i")
        && $c->cmd($m, 'GET', $fkey) === '2' && $a->unlock("c613f-$i", $t);

    // shared: two holders, no lock() meanwhile, then the lock
    $s1 = $a->lockShared("c613s-$i", 5000);
    $s2 = $b->lockShared("c613s-$i", 5000);
    $skey = rl_derived_key("lock:c613s-$i", 's');
    $m = $c->masterFor("lock:c613s-$i");
    $held = $x->lock("c613s-$i", 5000);
    $both = $c->cmd($m, 'ZCARD', $skey) === 2 && $c->slotOf($skey) === $c->slotOf("lock:c613s-$i");
    $released = $a->unlock("c613s-$i", $s1) && $b->extend("c613s-$i", $s2, 8000) && $b->unlock("c613s-$i", $s2);
    $t = $x->lock("c613s-$i", 5000);
    $ok['shared'] += is_string($s1) && is_string($s2) && $held === null && $both && $released
        && is_string($t) && $x->unlock("c613s-$i", $t);

    // permits: a limit of 2
    $p1 = $a->acquirePermit("c613p-$i", 2, 5000);
    $p2 = $b->acquirePermit("c613p-$i", 2, 5000);
    $p3 = $x->acquirePermit("c613p-$i", 2, 5000);
    $m = $c->masterFor("lock:c613p-$i");
    $ok['permit'] += is_string($p1) && is_string($p2) && $p3 === null
        && $c->cmd($m, 'ZCARD', "lock:c613p-$i") === 2
        && $a->unlock("c613p-$i", $p1) && $b->unlock("c613p-$i", $p2) && $c->cmd($m, 'EXISTS', "lock:c613p-$i") === 0;
}
foreach ($ok as $kind => $k) {
    echo "$kind: ", $k === $n ? 'all' : "$k of $n", "\n";
}
echo "masters used: ", count($masters), "\n";

// a permit waiter on the cluster is woken by a release (the wait connection
// goes to the slot's master): its stats() say so (counts, not an elapsed
// time, which a busy machine bends); the holder lets go once it is seen
// blocked in XREAD; a round that met its 2 s recheck as the holder let go
// is run again (at most 3, logged)
$m = $c->masterFor('lock:c613w');
$seen = rl_timing_until_woken('c613w', function () use ($a, $c, $m, $seeds) {
    $p = $a->acquirePermit('c613w', 1, 60000);
    $child = rl_woken_waiter('new RedisLock(["cluster" => ' . var_export($seeds, true) . '])', '
        $t = $l->acquirePermit("c613w", 1, 5000, 30.0);
        $got = $t ? "got" : "none";
        $l->unlock("c613w", $t);');
    rl_wait_until(fn() => $c->cmd($m, 'LLEN', rl_derived_key('lock:c613w', 'q')) === 1, 30.0);
    rl_timing_blocked(new RlTestRedis($m), 'c613w');
    $a->unlock('c613w', $p);
    return rl_timing_counts($child, 60.0);
});
echo "waiter: ", $seen['got'] ?? 'nothing', ", woken by the release (not after its TTL): ", var_export(rl_timing_woken($seen), true),
    rl_timing_woken($seen) ? '' : ' ' . json_encode($seen), "\n";
?>
--EXPECT--
fencing: all
shared: all
permit: all
masters used: 3
waiter: got, woken by the release (not after its TTL): true
