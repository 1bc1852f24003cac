--TEST--
lockMany() waiting: queued at the resource held, it is woken by that release (the wait ends before the first 2 s look could come); a holder of another resource next takes its turn; a wait that times out leaves no queue entry; a lock() waiter behind lockMany()'s locks is woken by unlockMany(); a lockMany() waiter keeps its place in line across its looks (lock() callers that came after it do not pass it)
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
// releases each, stamping the moment just before each release.
$child = rl_php_child_start('
    $l = new RedisLock(' . var_export($server, true) . ', ["auto_release" => false]);
    $r = new RlTestRedis(' . var_export($server, true) . ');
    $b = $l->lock("b821", 30000);
    echo "in\n";
    usleep(300000);
    $c = $l->lock("c821", 30000);
    $r->cmd("SET", "lock:stamp821", (string)microtime(true));
    $l->unlock("b821", $b);
    usleep(300000);
    $r->cmd("SET", "lock:stamp821", (string)microtime(true));
    $l->unlock("c821", $c);
');
rl_wait_until(fn() => $r->get('lock:b821') !== null, 30.0);

echo "-- woken at the release\n";
// a wait shorter than the first look (2 s): only a wake can end it with the locks
$t = $l->lockMany(['a821', 'b821', 'c821'], 30000, rl_under_valgrind() ? 30.0 : 1.9); // valgrind: the timing is the normal pass's
$got = microtime(true);
echo "had them all: ", is_string($t) ? 'yes' : 'no', "\n";
$late = $got - (float)$r->get('lock:stamp821');
echo "soon after the last release: ", $late >= 0 && $late < (rl_under_valgrind() ? 10 : 1.5) ? 'yes' : "NO ($late s)", "\n";
$child->wait(30);
var_dump($l->unlockMany(['a821', 'b821', 'c821'], $t));

echo "-- a wait that times out\n";
$holder = new RedisLock($server);
$h = $holder->lock('b821', 30000);
$start = microtime(true);
var_dump($l->lockMany(['a821', 'b821'], 30000, 0.3));
$took = microtime(true) - $start;
echo "waited its 0.3 s: ", $took >= 0.29 && $took < 2.0 ? 'yes' : "no ($took s)", "\n";
echo "queue left: ", $r->cmd('EXISTS', rl_derived_key('lock:b821', 'q')), ", a821 taken: ", $r->get('lock:a821') === null ? 'no' : 'yes', "\n";
$holder->unlock('b821', $h);

echo "-- a lock() waiter behind them\n";
$t = $l->lockMany(['a821', 'c821'], 30000);
$waiter = rl_php_child_start('
    $l = new RedisLock(' . var_export($server, true) . ');
    $start = microtime(true);
    $t = $l->lock("c821", 30000, 1.9);
    echo $t !== null ? "had c821\n" : "no c821\n";
');
rl_wait_until(fn() => $r->cmd('EXISTS', rl_derived_key('lock:c821', 'q')) === 1, 30.0);
var_dump($l->unlockMany(['a821', 'c821'], $t));
[$code, $out] = $waiter->wait(30);
echo $out;
echo "-- its place in line kept across its looks\n";
$r->del('order821');
$holder = new RedisLock($server);
$h = $holder->lock('b821', 30000);
$many = rl_php_child_start('
    $l = new RedisLock(' . var_export($server, true) . ');
    $t = $l->lockMany(["b821", "c821"], 30000, 20.0);
    (new RlTestRedis(' . var_export($server, true) . '))->cmd("RPUSH", "order821", $t !== null ? "lockMany" : "none");
    $l->unlockMany(["b821", "c821"], $t);
');
rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key('lock:b821', 'q')) === 1, 30.0);
$singles = [];
foreach ([1, 2] as $i) {
    $singles[] = rl_php_child_start('
        $l = new RedisLock(' . var_export($server, true) . ');
        $t = $l->lock("b821", 30000, 20.0);
        (new RlTestRedis(' . var_export($server, true) . '))->cmd("RPUSH", "order821", $t !== null ? "lock" : "none");
        $l->unlock("b821", $t);
    ');
    rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key('lock:b821', 'q')) === 1 + $i, 30.0);
}
usleep(2300000);                                     // the lockMany() waiter looked again (2 s)
$holder->unlock('b821', $h);
foreach (array_merge([$many], $singles) as $c) {
    $c->wait(60);
}
echo "in arrival order: ", implode(', ', $r->cmd('LRANGE', 'order821', 0, -1)), "\n";
$r->del('order821');

$r->del("lock:stamp821");
echo "keys left: ", count($r->cmd("KEYS", "*821*")), "\n";
?>
--EXPECT--
-- woken at the release
had them all: yes
soon after the last release: yes
bool(true)
-- a wait that times out
NULL
waited its 0.3 s: yes
queue left: 0, a821 taken: no
-- a lock() waiter behind them
bool(true)
had c821
-- its place in line kept across its looks
in arrival order: lockMany, lock, lock
keys left: 0
