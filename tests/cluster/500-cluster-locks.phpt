--TEST--
Cluster: locks on 1,000 resources spread over the three masters; lock, unlock, extend, waiting, re-entrancy, synchronized() and auto-release after a fatal error; every key of a lock in its slot; the slot map fetched once per process; nodes in stats()
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
require __DIR__ . '/../timing.inc';

$c = new RlTestCluster();
$seeds = $c->seeds();
$before = RedisLock::stats()['cluster_map_refreshes'];

// constructing does no I/O; one seed is enough to find every master
$l = new RedisLock(['cluster' => [$seeds[0]]]);
$ok = 0;
$where = [];
$n = rl_under_valgrind() ? 150 : 1000;   // the same paths, fewer rounds under valgrind
for ($i = 0; $i < $n; $i++) {
    $t = $l->lock("c500-$i", 10000);
    $m = $c->masterFor("lock:c500-$i");
    $ok += is_string($t) && $c->cmd($m, 'GET', "lock:c500-$i") === $t && $l->unlock("c500-$i", $t)
        && $c->cmd($m, 'EXISTS', "lock:c500-$i") === 0;
    $where[$m] = ($where[$m] ?? 0) + 1;
}
echo "locked and unlocked on the slot's master: ", $ok === $n ? "all $n" : "$ok of $n", "\n";
echo "masters used: ", count($where), ", each at least a quarter: ", var_export(min($where) >= $n / 4, true), "\n";
echo "slot maps fetched: ", RedisLock::stats()['cluster_map_refreshes'] - $before, "\n";
echo "redirections: ", RedisLock::stats()['cluster_redirects'], "\n";

// a second object (another seed list order) reuses the process's connections
$other = new RedisLock(['cluster' => array_reverse($seeds)]);
$t = $l->lock('c500', 10000);
var_dump($other->lock('c500', 10000));          // held
var_dump($other->extend('c500', $t, 20000));    // extend goes by the token, whoever holds it
var_dump($l->extend('c500', $t, 30000));
$pttl = $c->cmd($c->masterFor('lock:c500'), 'PTTL', 'lock:c500');
echo "extended: ", var_export($pttl > 20000, true), "\n";
// re-entrancy: the same object takes it again, the key goes at the last release
var_dump($l->acquireLock('c500r', 10));
var_dump($l->acquireLock('c500r', 10));
var_dump($l->releaseLock('c500r'));
echo "still held after one release: ", $c->cmd($c->masterFor('lock:c500r'), 'EXISTS', 'lock:c500r'), "\n";
var_dump($l->releaseLock('c500r'));
var_dump($l->unlock('c500', $t));

// waiting woken at release: the wait connection goes to the slot's master
// (the waiter's stats() say what ended its wait: the release's wake, not
// its TTL or recheck; counts, not its clock, which a busy machine bends)
$m = $c->masterFor('lock:c500w');
$mc = new RlTestRedis($m);
$inSlot = null;
$seen = rl_timing_until_woken('c500w', function () use ($l, $c, $m, $mc, $seeds, &$inSlot) {
    $short = $l->lock('c500w', 60000);
    $child = rl_woken_waiter('new RedisLock(["cluster" => ' . var_export($seeds, true) . '])',
        '$t = $l->lock("c500w", 5000, 30.0); $got = $t ? "got" : "none"; $l->unlock("c500w", $t);');
    rl_wait_until(fn() => $c->cmd($m, 'LLEN', rl_derived_key('lock:c500w', 'q')) === 1, 30.0);
    $inSlot ??= json_encode(array_map(fn($k) => $c->slotOf($k) === $c->slotOf('lock:c500w'),
        [rl_derived_key('lock:c500w', 'q'), rl_derived_key('lock:c500w', 'r'), rl_derived_key('lock:c500w', 'A')]));
    rl_timing_blocked($mc, 'c500w');
    $l->unlock('c500w', $short);
    return rl_timing_counts($child, 60.0);
});
echo "queue, reservation and wake stream in the lock's slot: $inSlot\n";
echo "waiter: ", $seen['got'] ?? 'nothing', ", woken by the release (not after the 60 s TTL): ",
    var_export(rl_timing_woken($seen), true), rl_timing_woken($seen) ? '' : ' ' . json_encode($seen), "\n";

// synchronized()
echo "synchronized: ", $l->synchronized('c500s', fn($tok) => $c->cmd($c->masterFor('lock:c500s'), 'GET', 'lock:c500s') === $tok ? 'ran holding it' : 'not held'), "\n";
echo "released after: ", $c->cmd($c->masterFor('lock:c500s'), 'EXISTS', 'lock:c500s'), "\n";

// a hash tag puts resources on one master, by the user's choice
$l->lock('{order-7}:a', 10000);
$l->lock('{order-7}:b', 10000);
echo "tagged resources on one master: ", var_export($c->masterFor('lock:{order-7}:a') === $c->masterFor('lock:{order-7}:b'), true), "\n";

// auto-release after a fatal error in a child process (under valgrind
// USE_ZEND_ALLOC=0 turns memory_limit off: the child needs Zend's allocator)
putenv('USE_ZEND_ALLOC=1');
[$code, $out, $err] = rl_php_child('
    $o = new RedisLock(["cluster" => ' . var_export($seeds, true) . ']);
    echo $o->lock("c500f", 60000) ? "locked\n" : "not locked\n";
    $hog = [];
    for ($i = 0; $i < 512; $i++) { $hog[] = str_repeat("x", 1 << 20); }  // memory limit: fatal error
    echo "memory_limit not enforced\n";
', ['memory_limit' => '32M'], 120.0);
echo "child: ", trim($out), ", fatal: ", var_export(str_contains($err . $out, 'Allowed memory size'), true), "\n";
echo "lock released after the fatal error: ", var_export($c->cmd($c->masterFor('lock:c500f'), 'EXISTS', 'lock:c500f') === 0, true), "\n";

// RedLock: a cluster is one vote beside two plain nodes
$rl = new RedLock([['cluster' => $seeds], rl_test_server(0), rl_test_server(1)]);
$t = $rl->lock('c500q', 10000);
echo "RedLock with a cluster node: ", json_encode([
    $c->cmd($c->masterFor('lock:c500q'), 'GET', 'lock:c500q') === $t,
    (new RlTestRedis(rl_test_server(0)))->get('lock:c500q') === $t,
    (new RlTestRedis(rl_test_server(1)))->get('lock:c500q') === $t]), "\n";
var_dump($rl->unlock('c500q', $t));

// min_replicas: WAIT rides with the command to the slot's master
$acked = new RedisLock(['cluster' => $seeds], ['min_replicas' => 1, 'replica_timeout' => 2.0]);
$t = $acked->lock('c500m', 10000);
$replica = $c->replicaOf($c->masterFor('lock:c500m'));
$r = new RlTestRedis($replica);
$r->cmd('READONLY');
echo "acknowledged lock already on the replica: ", var_export(is_string($t) && $r->cmd('GET', 'lock:c500m') === $t, true), "\n";
var_dump($acked->unlock('c500m', $t));

$rows = array_column(RedisLock::stats()['connections'], 'endpoint');
echo "every master in the pool: ", var_export(!array_diff($c->masters(), $rows), true), "\n";
?>
--EXPECTF--
locked and unlocked on the slot's master: all %d
masters used: 3, each at least a quarter: true
slot maps fetched: 1
redirections: 0
NULL
bool(true)
bool(true)
extended: true
bool(true)
bool(true)
bool(true)
still held after one release: 1
bool(true)
bool(true)
queue, reservation and wake stream in the lock's slot: [true,true,true]
waiter: got, woken by the release (not after the 60 s TTL): true
synchronized: ran holding it
released after: 0
tagged resources on one master: true
child: locked, fatal: true
lock released after the fatal error: true
RedLock with a cluster node: [true,true,true]
bool(true)
acknowledged lock already on the replica: true
bool(true)
every master in the pool: true
