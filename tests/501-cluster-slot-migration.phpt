--TEST--
Cluster: a resource whose slot is being migrated: locking goes on through ASK while the slot is MIGRATING/IMPORTING, and through MOVED after the move; no lock is lost or taken twice
--SKIPIF--
<?php require __DIR__ . '/cluster.inc'; rl_cluster_skip(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/cluster.inc';

$c = new RlTestCluster();
// a command on the importing node, for keys of the slot it imports
function asking(string $addr, string ...$args): mixed
{
    $r = new RlTestRedis($addr);
    $r->cmd('ASKING');
    return $r->cmd(...$args);
}
$l = new RedisLock(['cluster' => $c->seeds()]);
$other = new RedisLock(['cluster' => $c->seeds()]);
$slot = $c->slotOf('lock:{t501}a');
$from = $c->masterFor('lock:{t501}a');
$to = current(array_diff($c->masters(), [$from]));
echo "resources in one slot: ", var_export($c->slotOf('lock:{t501}b') === $slot, true), "\n";

$a = $l->lock('{t501}a', 60000);               // routed while the slot is still on $from
echo "a on the old master: ", var_export($c->cmd($from, 'GET', 'lock:{t501}a') === $a, true), "\n";
$redirects = RedisLock::stats()['cluster_redirects'];

// half-way: the slot is MIGRATING on $from, IMPORTING on $to, its keys moved
$c->migrateSlot($slot, $from, $to, false);
echo "a moved with the slot: ", var_export(asking($to, 'GET', 'lock:{t501}a') === $a, true), "\n";
var_dump($other->lock('{t501}a', 60000));      // ASK: held on $to, not taken twice
var_dump($l->extend('{t501}a', $a, 90000));    // ASK: extended where it is
$b = $l->lock('{t501}b', 60000);               // ASK: a new lock lands on the importing node
echo "b taken on the new master: ", var_export(is_string($b) && asking($to, 'GET', 'lock:{t501}b') === $b, true), "\n";
echo "nothing left on the old one: ", $c->cmd($from, 'CLUSTER', 'COUNTKEYSINSLOT', $slot), "\n";
echo "ASK redirections followed: ", var_export(RedisLock::stats()["cluster_redirects"] - $redirects >= 3, true), "\n";

// a release touches the lock's queue, reservation and wake stream too: a
// script of several keys, which the importing node answers TRYAGAIN while
// they are split between the nodes; the call waits that out (within its
// timeout), here until the migration is finished from another process
$finisher = rl_php_child_start('
    usleep(300000);
    $to = ' . var_export($to, true) . ';
    foreach (array_unique(array_merge([$to], ' . var_export($c->masters(), true) . ')) as $m) {
        (new RlTestRedis($m))->cmd("CLUSTER", "SETSLOT", ' . $slot . ', "NODE", ' . var_export($c->id($to), true) . ');
    }
    echo "finished\n";
');
$refreshes = RedisLock::stats()['cluster_map_refreshes'];
$patient = new RedisLock(['cluster' => $c->seeds()], ['timeout' => 10.0]);
$t0 = microtime(true);
var_dump($patient->unlock('{t501}a', $a));
echo "unlock waited for the migration: ", var_export(microtime(true) - $t0 > 0.2, true), "\n";
echo "finisher: ", trim($finisher->wait(60.0)[1]), "\n";
$c->waitStable(30.0, fn($map) => in_array(true, array_map(fn($r) => $slot >= $r[0] && $slot <= $r[1] && $r[2] === $to,
    $map), true) ? null : "slot $slot not on $to yet", 'every node to agree on the move');

// the first call that met MOVED fetched the map again, for every object of
// the process: the others go straight to the new master
var_dump($other->lock('{t501}b', 60000));      // still held, on $to
echo "map fetched again after MOVED: ", var_export(RedisLock::stats()['cluster_map_refreshes'] > $refreshes, true), "\n";
var_dump($l->unlock('{t501}b', $b));
$t = $other->lock('{t501}a', 1000);
echo "free again, taken on the new master: ", var_export($c->cmd($to, 'GET', 'lock:{t501}a') === $t, true), "\n";
var_dump($other->unlock('{t501}a', $t));

// with a short timeout, a migration left half-way is a clear exception
$slot2 = $c->slotOf('lock:{t501x}');
$from2 = $c->masterFor('lock:{t501x}');
$to2 = current(array_diff($c->masters(), [$from2]));
$h = $l->lock('{t501x}', 60000);
$c->migrateSlot($slot2, $from2, $to2, false);
$short = new RedisLock(['cluster' => $c->seeds()], ['timeout' => 0.3]);
try {
    $short->unlock('{t501x}', $h);
    echo "no exception\n";
} catch (RedisLockException $e) {
    echo get_class($e), ' ', $e->getCode(), ': ', str_replace($c->seeds(), 'ADDR', $e->getMessage()), "\n";
}
$c->migrateSlot($slot2, $from2, $to2, true);
var_dump($short->unlock('{t501x}', $h));
?>
--EXPECT--
resources in one slot: true
a on the old master: true
a moved with the slot: true
NULL
bool(true)
b taken on the new master: true
nothing left on the old one: 0
ASK redirections followed: true
bool(true)
unlock waited for the migration: true
finisher: finished
NULL
map fetched again after MOVED: true
bool(true)
free again, taken on the new master: true
bool(true)
RedisLockException 16: Redis node ADDR: still answering TRYAGAIN Multiple keys request during rehashing of slot after the timeout (300 ms)
bool(true)
