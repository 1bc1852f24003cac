--TEST--
Cluster: a resource whose slot is being migrated: locking goes on through ASK while the slot is MIGRATING/IMPORTING, and through MOVED after the move; a release is made on the lock key alone at once (logged, counted) instead of waiting for the migration's end; no lock is lost or taken twice
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';

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
// they are split between the nodes; the release is made at once on the lock
// key alone (nobody woken), which the log says. Nothing finishes the
// migration until unlock() has returned: a release that waited for its end
// would fail at its 10 s timeout (states, not a clock: a busy machine makes
// any "returned within N ms" false)
$refreshes = RedisLock::stats()['cluster_map_refreshes'];
$logged = [];
$logger = function (string $level, string $message, array $context) use (&$logged) { $logged[] = [$level, $message, $context]; };
$patient = new RedisLock(['cluster' => $c->seeds()], ['timeout' => 10.0, 'logger' => $logger]);
$oneKey = RedisLock::stats()['cluster_one_key_releases'];
var_dump($patient->unlock('{t501}a', $a));
echo "unlock did not wait for the migration: it is still under way: ",
    var_export(str_contains($c->cmd($from, 'CLUSTER', 'NODES'), "[$slot->-" . $c->id($to) . "]"), true), "\n";
echo "gone from the importing node: ", var_export(asking($to, 'EXISTS', 'lock:{t501}a'), true), "\n";
echo "counted: ", RedisLock::stats()['cluster_one_key_releases'] - $oneKey, "\n";
[$level, $message, $context] = end($logged);
echo "logged: $level $message ", current($context['nodes']), "\n";
// now the migration is finished (by another process)
[, $out] = rl_php_child('
    $to = ' . var_export($to, true) . ';
    foreach (array_unique(array_merge([$to], ' . var_export($c->masters(), true) . ')) as $m) {
        (new RlTestRedis($m))->cmd("CLUSTER", "SETSLOT", ' . $slot . ', "NODE", ' . var_export($c->id($to), true) . ');
    }
    echo "finished\n";
');
echo "finisher: ", trim($out), "\n";
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

// a migration left half-way: released all the same
$slot2 = $c->slotOf('lock:{t501x}');
$from2 = $c->masterFor('lock:{t501x}');
$to2 = current(array_diff($c->masters(), [$from2]));
$h = $l->lock('{t501x}', 60000);
$c->migrateSlot($slot2, $from2, $to2, false);
// nothing finishes it until the release returned: the release does not wait
// for it (the timeout bounds only how long a release that did would fail)
$short = new RedisLock(['cluster' => $c->seeds()], ['timeout' => 3.0]);
var_dump($short->unlock('{t501x}', $h));
$c->migrateSlot($slot2, $from2, $to2, true);
var_dump($short->unlock('{t501x}', $h));          // released already
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
unlock did not wait for the migration: it is still under way: true
gone from the importing node: 0
counted: 1
logged: warning redislock: released {t501}a yes, on the lock key alone: its Cluster slot is being migrated, waiters not woken
finisher: finished
NULL
map fetched again after MOVED: true
bool(true)
free again, taken on the new master: true
bool(true)
bool(true)
bool(false)
