--TEST--
Cluster: atomic slot migration (Redis 8.4+ CLUSTER MIGRATION, Valkey 9.0+ CLUSTER MIGRATESLOTS) of the slot of a held lock with a waiter queued: calls made while the source holds the slot's writes (extend, unlock, lockMany, a contender's lock) wait the pause out and land on the new master through MOVED with the right results; no second holder; the queued waiter follows the slot and is woken by the release
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip_atomic_migration(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
require __DIR__ . '/../woken.inc';

// the pause is held open by stopping the target: longer than the default
// node timeout would have its replica elected in its place
$c = new RlTestCluster(3, 1, 20000);
// Redis cancels a migration whose write pause outlasts
// cluster-slot-migration-write-pause-timeout (10 s): the calls held here
// may take longer to start on a loaded machine (a CI run: "canceled").
// Valkey has no such limit.
foreach ($c->seeds() as $node) {
    try {
        $c->cmd($node, 'CONFIG', 'SET', 'cluster-slot-migration-write-pause-timeout', '60000');
    } catch (RlTestRedisError) {
    }
}
$seeds = var_export(['cluster' => $c->seeds()], true);
// a call waits a pause out within its timeout (a pause lasts up to 10 s)
$holder = new RedisLock(['cluster' => $c->seeds()], ['timeout' => 30.0]);
$a = $holder->lock('{t516}a', 60000);   // extended across the pause by another process
$b = $holder->lock('{t516}b', 60000);   // released across the pause by another process
$slot = $c->slotOf('lock:{t516}a');
echo "one slot: ", var_export($c->slotOf('lock:{t516}b') === $slot && $c->slotOf('lock:{t516}c') === $slot, true), "\n";

// queued behind the holder, blocked in XREAD on the slot's master
$waiter = rl_php_child_start('
    $l = new RedisLock(' . $seeds . ', ["timeout" => 30.0]);
    $t = $l->lock("{t516}a", 60000, 120.0);
    $s = RedisLock::stats();
    echo is_string($t) ? "locked" : "not locked", ", woken ", $s["waits_woken"] >= 1 ? "yes" : "no",
        ", wake errors ", $s["wake_errors"], "\n";
    if (is_string($t)) { $l->unlock("{t516}a", $t); }
');

// one process per call, each held at a go file until the pause is open
$go = rl_mktemp_dir('t516') . '/go';
$calls = [
    'extend' => 'var_dump($l->extend("{t516}a", ' . var_export($a, true) . ', 300000));',
    'unlock' => 'var_dump($l->unlock("{t516}b", ' . var_export($b, true) . '));',
    'lockMany' => '$t = $l->lockMany(["{t516}c", "{t516}d"], 300000); echo is_string($t) ? "locked" : "not locked", "\n";
        $other = new RedisLock(' . $seeds . ', ["timeout" => 30.0]);
        var_dump($other->lock("{t516}d", 60000));   // held where the slot is served now
        var_dump(is_string($t) && $l->unlockMany(["{t516}c", "{t516}d"], $t));',
    'contender' => 'var_dump($l->lock("{t516}a", 60000));',
];
$children = [];
foreach ($calls as $name => $call) {
    $children[$name] = rl_php_child_start('
        $l = new RedisLock(' . $seeds . ', ["timeout" => 30.0]);
        $l->isLocked("{t516}z");   // connected, the slot map fetched
        while (!file_exists(' . var_export($go, true) . ')) { usleep(1000); }
        ' . $call . '
        echo "redirected: ", RedisLock::stats()["cluster_redirects"] >= 1 ? "yes" : "no", "\n";
    ');
}

// held writes are clients blocked on the source that are not in XREAD
$heldWrites = function (string $addr) use ($c): int {
    $n = 0;
    foreach (explode("\n", trim($c->cmd($addr, 'CLIENT', 'LIST'))) as $line) {
        if (preg_match('/ flags=(\S+) /', $line, $f) && str_contains($f[1], 'b') && !str_contains($line, ' cmd=xread ')) {
            $n++;
        }
    }
    return $n;
};
$from = $c->masterForSlot($slot);
$to = current(array_diff($c->masters(), [$from]));
for ($attempt = 1; ; $attempt++) {
    if (!rl_wait_until(fn() => rl_woken_blocked(new RlTestRedis($from)) >= 1, 60.0)) {
        echo "the waiter is not blocked on $from: ", $waiter->output(), $waiter->errorOutput(), "\n";
    }
    $held = 0;
    $caught = $c->atomicMigrateSlot($slot, $from, $to, function () use ($go, $from, $heldWrites, &$held, $calls) {
        touch($go);
        // (bounded below the node timeout: the target is stopped meanwhile)
        rl_wait_until(function () use ($heldWrites, $from, &$held, $calls) {
            return ($held = $heldWrites($from)) >= count($calls);
        }, 10.0);
    });
    if ($caught) {
        break;
    }
    if ($attempt >= 8) {
        echo "the pause was never caught open in $attempt migrations\n";
        break;
    }
    // back where the callers' slot maps say it is, for the next try
    rl_test_note("516: migration $attempt finished before its pause was seen; the slot moves back and again");
    $c->atomicMigrateSlot($slot, $to, $from);
}
echo "calls held by the pause: $held of ", count($calls), "\n";
foreach ($children as $name => $child) {
    [$code, $out, $err] = $child->wait(90.0);
    echo "$name: ", str_replace("\n", ' | ', trim($out . $err)), "\n";
}
echo "served by the new master: ", var_export($c->masterForSlot($slot) === $to, true), "\n";
echo "a extended on it: ", var_export($c->cmd($to, 'PTTL', 'lock:{t516}a') > 60000, true), "\n";
echo "b gone: ", $c->cmd($to, 'EXISTS', 'lock:{t516}b'), "\n";
echo "nothing left on the source: ", $c->cmd($from, 'CLUSTER', 'COUNTKEYSINSLOT', $slot), "\n";

// the waiter's read followed the slot: it blocks on the new master
echo "waiter blocked on the new master: ", var_export(rl_wait_until(fn() => rl_woken_blocked(new RlTestRedis($to)) >= 1, 60.0), true), "\n";
var_dump($holder->extend('{t516}a', $a, 60000));
var_dump($holder->unlock('{t516}a', $a));
[, $out, $err] = $waiter->wait(90.0);
echo "waiter: ", trim($out . $err), "\n";
?>
--EXPECT--
one slot: true
calls held by the pause: 4 of 4
extend: bool(true) | redirected: yes
unlock: bool(true) | redirected: yes
lockMany: locked | NULL | bool(true) | redirected: yes
contender: NULL | redirected: yes
served by the new master: true
a extended on it: true
b gone: 0
nothing left on the source: 0
waiter blocked on the new master: true
bool(true)
bool(true)
waiter: locked, woken yes, wake errors 0
