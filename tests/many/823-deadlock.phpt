--TEST--
Deadlocks detected: a cycle of 2 and of 3 processes (lock() and lockMany()): the wait that closes it gets RedisLockDeadlockException (code 19, naming the cycle) at once (before any of its waits ended), the others have their locks once it lets go; a wait for one's own lock (another object's) is no cycle; a holder killed mid-cycle leaves no edge behind and its lock is had at its TTL
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$server = rl_test_server(0);
$r = new RlTestRedis($server);
$edges = "lock:\0waits";

/* A child that holds $holds, then (once $n children are in, and $edges
 * waits are recorded: the ones before it in the cycle wait already) waits
 * up to 30 s for $wants (a list: lockMany()), and lets go of all when done.
 * "at once": told before any of its waits ended (stats(): no wait woken
 * nor rechecked), at its first look, not by a time. */
function party(string $name, string $holds, string|array $wants, int $n, int $edges): RlTestChild
{
    return rl_php_child_start('
        $server = ' . var_export(rl_test_server(0), true) . ';
        $l = new RedisLock($server);
        $r = new RlTestRedis($server);
        $wants = ' . var_export($wants, true) . ';
        $held = $l->lock(' . var_export($holds, true) . ', 30000);
        $r->cmd("INCR", "in823");
        rl_wait_until(fn() => (int)$r->get("in823") >= ' . $n . ', 30.0);
        rl_wait_until(fn() => $r->cmd("HLEN", "lock:\0waits") >= ' . $edges . ', 30.0);
        $before = RedisLock::stats();
        try {
            $t = is_array($wants) ? $l->lockMany($wants, 30000, 30.0) : $l->lock($wants, 30000, 30.0);
            echo ' . var_export($name, true) . ', " had ", implode(" and ", (array)$wants), ": ", $t !== null ? "yes" : "no", "\n";
            is_array($wants) ? $l->unlockMany($wants, $t) : $l->unlock($wants, $t);
        } catch (RedisLockDeadlockException $e) {
            $after = RedisLock::stats();
            $ended = $after["waits_woken"] - $before["waits_woken"] + $after["waits_rechecked"] - $before["waits_rechecked"];
            echo ' . var_export($name, true) . ', " ", get_class($e), " (code ", $e->getCode(), ") ",
                $ended === 0 ? "at once" : "after $ended waits", ": ", $e->getMessage(), "\n";
        }
        $l->unlock(' . var_export($holds, true) . ', $held);
    ');
}

function run(array $children): void
{
    global $r;
    foreach ($children as $c) {
        [$code, $out, $err] = $c->wait(60);
        echo $out, $err;
    }
    $r->del('in823');
}

$r->del('in823', 'lock:a823', 'lock:b823', 'lock:c823', 'lock:d823', $edges);
echo "-- a cycle of 2\n";
run([party('p1', 'a823', 'b823', 2, 0), party('p2', 'b823', 'a823', 2, 1)]);
echo "-- a cycle of 3\n";
run([party('p1', 'a823', 'b823', 3, 0), party('p2', 'b823', 'c823', 3, 1), party('p3', 'c823', 'a823', 3, 2)]);
echo "-- lockMany() in a cycle\n";
run([party('p1', 'a823', ['c823', 'b823'], 2, 0), party('p2', 'b823', 'a823', 2, 1)]);
echo "-- no cycle: a chain\n";
run([party('p1', 'a823', 'b823', 3, 0), party('p2', 'b823', 'c823', 3, 1), party('p3', 'c823', 'd823', 3, 2)]);

echo "-- the holder changes while one waits\n";
// H holds R; X waits for R, then W (holding S) waits for R behind X; H
// lets go: X has R, and waits for S: X and W wait for each other now,
// though W queued behind H (its look names the new holder)
$hold = rl_php_child_start('
    $l = new RedisLock(' . var_export($server, true) . ');
    $t = $l->lock("c823", 30000);
    $r = new RlTestRedis(' . var_export($server, true) . ');
    rl_wait_until(fn() => $r->cmd("LLEN", rl_derived_key("lock:c823", "q")) === 2, 30.0);
    usleep(200000);
    $l->unlock("c823", $t);
');
$waiter = fn(string $name, ?string $holds, string $first, ?string $then) => rl_php_child_start('
    $l = new RedisLock(' . var_export($server, true) . ');
    $held = ' . var_export($holds, true) . ' !== null ? $l->lock(' . var_export($holds, true) . ', 30000) : null;
    try {
        $t = $l->lock(' . var_export($first, true) . ', 30000, 10.0);
        if (' . var_export($then, true) . ' !== null) {
            usleep(300000);
            $u = $l->lock(' . var_export($then, true) . ', 30000, 10.0);
        }
        echo "had", "\n";
    } catch (RedisLockDeadlockException $e) {
        echo "told\n";
    }
');
rl_wait_until(fn() => $r->get('lock:c823') !== null, 30.0);
$x = $waiter('x', null, 'c823', 'd823');
rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key('lock:c823', 'q')) === 1, 30.0);
$w = $waiter('w', 'd823', 'c823', null);
$outs = [];
foreach ([$hold, $x, $w] as $c) {
    [, $out, $err] = $c->wait(60);
    $outs[] = trim($out . $err);
}
sort($outs);
echo "one told, the other had its locks: ", json_encode(array_values(array_filter($outs))), "\n";

echo "-- one's own lock\n";
$a = new RedisLock($server);
$b = new RedisLock($server);
$start = microtime(true);                      // before the lock: its TTL cannot end sooner
$t = $a->lock('a823', 300);
$u = $b->lock('a823', 30000, 30.0);
echo "had it at its TTL: ", $u !== null && microtime(true) - $start >= 0.25 ? 'yes' : 'no', "\n";
$b->unlock('a823', $u);

echo "-- a holder killed mid-cycle\n";
$t = $a->lock('a823', 30000);
$dead = rl_php_child_start('
    $l = new RedisLock(' . var_export($server, true) . ');
    $l->lock("b823", 5000);
    $l->lock("a823", 30000, 30.0);
');
rl_wait_until(fn() => $r->cmd('HLEN', $edges) === 1, 30.0);
echo "its edge: ", $r->cmd('HLEN', $edges), "\n";
$dead->kill();
usleep(3200000);                    // its edge lives 3 s without its looks
$start = microtime(true);
try {
    $u = $a->lock('b823', 30000, 10.0);
    echo "had its lock at its TTL: ", $u !== null ? 'yes' : 'no', "\n";
    $a->unlock('b823', $u);
} catch (RedisLockDeadlockException $e) {
    echo "deadlock: ", $e->getMessage(), "\n";
}
$a->unlock('a823', $t);
echo "edges left: ", $r->cmd('EXISTS', $edges), "\n";
// the dead waiter was woken by the release: its wake stream lives 10 s, its reservation 200 ms
$lasting = array_filter($r->cmd('KEYS', '*823*'), function ($k) use ($r) { $p = $r->cmd('PTTL', $k); return $p === -1 || $p > 10000; });
echo "keys left beyond 10 s: ", json_encode(array_values($lasting)), "\n";
?>
--EXPECT--
-- a cycle of 2
p1 had b823: yes
p2 RedisLockDeadlockException (code 19) at once: waiting for "a823" would deadlock: it is held by a process that waits for "b823", held by this process
-- a cycle of 3
p1 had b823: yes
p2 had c823: yes
p3 RedisLockDeadlockException (code 19) at once: waiting for "a823" would deadlock: it is held by a process that waits for "b823", held by a process that waits for "c823", held by this process
-- lockMany() in a cycle
p1 had c823 and b823: yes
p2 RedisLockDeadlockException (code 19) at once: waiting for "a823" would deadlock: it is held by a process that waits for "b823", held by this process
-- no cycle: a chain
p1 had b823: yes
p2 had c823: yes
p3 had d823: yes
-- the holder changes while one waits
one told, the other had its locks: ["had","told"]
-- one's own lock
had it at its TTL: yes
-- a holder killed mid-cycle
its edge: 1
had its lock at its TTL: yes
edges left: 0
keys left beyond 10 s: []
