--TEST--
Cluster: once() on a resource's slot master: one caller rebuilds, the 4 that queue meanwhile are all woken when it returns, without the lock; if the rebuild throws, exactly one waiter takes over; resources on each of the three masters
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); rl_skip_unless_servers(1); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
require __DIR__ . '/../guard.inc';

$c = new RlTestCluster();
$make = 'new RedisLock(' . var_export(['cluster' => [$c->seeds()[0]]], true) . ', $o)';
// a resource on each master
$picked = [];
for ($i = 0; count($picked) < 3; $i++) {
    $picked[$c->masterFor("lock:g509-$i")] ??= "g509-$i";
}
$cases = ['return', 'throw', 'return'];
foreach (array_values($picked) as $n => $res) {
    $case = $cases[$n];
    $master = $c->masterFor("lock:$res");
    echo "-- master ", $n + 1, ", the first rebuild's end: $case\n";
    rl_guard_round($make, $res, 4, $case, fn() => $c->cmd($master, 'LLEN', rl_derived_key("lock:$res", 'q')));
    echo "left on its master: ", $c->cmd($master, 'LLEN', rl_derived_key("lock:$res", 'q')) + $c->cmd($master, 'EXISTS', "lock:$res"), "\n";
}
?>
--EXPECT--
-- master 1, the first rebuild's end: return
ran with 'page 1': 1
waited with 'page 1': 4
rebuilds run: 1
left on its master: 0
-- master 2, the first rebuild's end: throw
first rebuilder: threw
ran: 1
waited: 3
rebuilds run: 2
left on its master: 0
-- master 3, the first rebuild's end: return
ran with 'page 1': 1
waited with 'page 1': 4
rebuilds run: 1
left on its master: 0
