--TEST--
lockMany() waiting: queued at the resource held, it is woken by that release (its stats() count the wakes); a holder of another resource next takes its turn; a wait that times out leaves no queue entry; a lock() waiter behind lockMany()'s locks is woken by unlockMany(); a lockMany() waiter keeps its place in line across its looks (lock() callers that came after it do not pass it)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$server = rl_test_server(0);
$r = new RlTestRedis($server);
$r->del('lock:a821', 'lock:b821', 'lock:c821', 'lock:stamp821');
$l = new RedisLock($server);

// A child holds b821 (TTL 30 s, no help from expiry) then c821 after it, and
// lets go of each once the waiter is queued there (states, not times).
// Counted, not timed: the waiter's waits end by the releases' wakes
// (waits_woken). A round where its 2 s look came just as a holder let go
// (took it without a wake, no error) is run again, at most 3 in all.
$stats = 'echo json_encode(array_map(fn($k) => $after[$k] - $before[$k], ["woken" => "waits_woken", "rechecked" => "waits_rechecked", "errors" => "wake_errors"])), "\n";';
for ($round = 1; ; $round++) {
    $child = rl_php_child_start('
        $l = new RedisLock(' . var_export($server, true) . ', ["auto_release" => false]);
        $r = new RlTestRedis(' . var_export($server, true) . ');
        $b = $l->lock("b821", 30000);
        echo "in\n";
        rl_wait_until(fn() => $r->cmd("LLEN", rl_derived_key("lock:b821", "q")) === 1, 60.0);
        $c = $l->lock("c821", 30000);
        $l->unlock("b821", $b);
        rl_wait_until(fn() => $r->cmd("LLEN", rl_derived_key("lock:c821", "q")) === 1, 60.0);
        $l->unlock("c821", $c);
    ');
    rl_wait_until(fn() => $r->get('lock:b821') !== null, 30.0);
    $before = RedisLock::stats();
    $t = $l->lockMany(['a821', 'b821', 'c821'], 30000, 60.0);
    $after = RedisLock::stats();
    $child->wait(60);
    $woken = $after['waits_woken'] - $before['waits_woken'];
    $errors = $after['wake_errors'] - $before['wake_errors'];
    if (!is_string($t) || $woken >= 1 || $errors > 0 || $round === 3) {
        break;
    }
    rl_test_note("woken at the release: round $round took the locks at its own look as the holder let go (not woken): run again");
    $l->unlockMany(['a821', 'b821', 'c821'], $t);
}

echo "-- woken at the release\n";
echo "had them all: ", is_string($t) ? 'yes' : 'no', "\n";
echo "woken: ", $woken >= 1 ? 'yes' : 'no', ", wake errors: $errors\n";
var_dump($l->unlockMany(['a821', 'b821', 'c821'], $t));

echo "-- a wait that times out\n";
$holder = new RedisLock($server);
$h = $holder->lock('b821', 30000);
$start = microtime(true);
var_dump($l->lockMany(['a821', 'b821'], 30000, 0.3));
$took = microtime(true) - $start;
echo "waited its 0.3 s: ", $took >= 0.29 ? 'yes' : "no ($took s)", ", did not hang: ", $took < 30 ? 'yes' : "no ($took s)", "\n";
echo "queue left: ", $r->cmd('EXISTS', rl_derived_key('lock:b821', 'q')), ", a821 taken: ", $r->get('lock:a821') === null ? 'no' : 'yes', "\n";
$holder->unlock('b821', $h);

echo "-- a lock() waiter behind them\n";
for ($round = 1; ; $round++) {
    $t = $l->lockMany(['a821', 'c821'], 30000);
    $waiter = rl_php_child_start('
        $l = new RedisLock(' . var_export($server, true) . ');
        $before = RedisLock::stats();
        $t = $l->lock("c821", 30000, 60.0);
        $after = RedisLock::stats();
        echo $t !== null ? "had c821\n" : "no c821\n";
        ' . $stats . '
        $l->unlock("c821", $t);
    ');
    rl_wait_until(fn() => $r->cmd('EXISTS', rl_derived_key('lock:c821', 'q')) === 1, 30.0);
    $released = $l->unlockMany(['a821', 'c821'], $t);
    [$code, $out] = $waiter->wait(60);
    [$had, $json] = explode("\n", trim($out)) + ['', ''];
    $seen = json_decode($json, true);
    if (!is_array($seen) || $seen['woken'] >= 1 || $seen['errors'] > 0 || $round === 3) {
        break;
    }
    rl_test_note("a lock() waiter behind them: round $round took it at its own look as unlockMany() let go (not woken): run again");
}
var_dump($released);
echo $had, "\n";
echo "woken by unlockMany(): ", is_array($seen) && $seen['woken'] >= 1 && $seen['errors'] === 0 ? 'yes' : trim($out), "\n";
echo "-- its place in line kept across its looks\n";
// the lockMany() waiter looks again at 2 s; the release comes after that
// look, which its stats() show (rechecked): a round where the look had not
// come yet (a loaded machine ran it late) is run again, at most 3 in all
for ($round = 1; ; $round++) {
    $r->del('order821', 'looks821');
    $holder = new RedisLock($server);
    $h = $holder->lock('b821', 30000);
    $many = rl_php_child_start('
        $l = new RedisLock(' . var_export($server, true) . ');
        $before = RedisLock::stats();
        $t = $l->lockMany(["b821", "c821"], 30000, 60.0);
        $after = RedisLock::stats();
        $r = new RlTestRedis(' . var_export($server, true) . ');
        $r->cmd("RPUSH", "order821", $t !== null ? "lockMany" : "none");
        $r->cmd("SET", "looks821", (string)($after["waits_rechecked"] - $before["waits_rechecked"]));
        $l->unlockMany(["b821", "c821"], $t);
    ');
    rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key('lock:b821', 'q')) === 1, 30.0);
    $singles = [];
    foreach ([1, 2] as $i) {
        $singles[] = rl_php_child_start('
            $l = new RedisLock(' . var_export($server, true) . ');
            $t = $l->lock("b821", 30000, 60.0);
            (new RlTestRedis(' . var_export($server, true) . '))->cmd("RPUSH", "order821", $t !== null ? "lock" : "none");
            $l->unlock("b821", $t);
        ');
        rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key('lock:b821', 'q')) === 1 + $i, 30.0);
    }
    usleep(2300000);                                     // the lockMany() waiter looks again (2 s)
    $holder->unlock('b821', $h);
    foreach (array_merge([$many], $singles) as $c) {
        $c->wait(60);
    }
    $order = $r->cmd('LRANGE', 'order821', 0, -1);
    if ((int)$r->get('looks821') >= 1 || $round === 3) {
        break;
    }
    rl_test_note("its place in line: round $round released before the lockMany() waiter's look came: run again");
}
echo "in arrival order: ", implode(', ', $order), ", after a look: ", (int)$r->get('looks821') >= 1 ? 'yes' : 'no', "\n";
$r->del('order821', 'looks821');

$r->del("lock:stamp821");
echo "keys left: ", count($r->cmd("KEYS", "*821*")), "\n";
?>
--EXPECT--
-- woken at the release
had them all: yes
woken: yes, wake errors: 0
bool(true)
-- a wait that times out
NULL
waited its 0.3 s: yes, did not hang: yes
queue left: 0, a821 taken: no
-- a lock() waiter behind them
bool(true)
had c821
woken by unlockMany(): yes
-- its place in line kept across its looks
in arrival order: lockMany, lock, lock, after a look: yes
keys left: 0
