--TEST--
Shared locks on RedLock (5 nodes): shared holders together on a quorum, a lock() refused meanwhile and had after the last release; the same with 2 of 5 nodes down; waiting woken at release
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/../timing.inc';

$nodes = [];
for ($i = 0; $i < 5; $i++) $nodes[] = new RlTestServer();
$addrs = array_map(fn($s) => $s->addr(), $nodes);
// timeouts of 2 s: a live node must answer within them (the quorum needs
// it), which a busy machine may make it miss at 0.3 s; a killed node
// refuses at once
$opts = ['timeout' => 2.0, 'connect_timeout' => 2.0];
$a = new RedLock($addrs, 10, 1, $opts);
$b = new RedLock($addrs, 10, 1, $opts);
$w = new RedLock($addrs, 10, 1, $opts);
$skey = rl_derived_key('lock:s612', 's');

$round = function (string $label, int $down) use ($a, $b, $w, $nodes, $skey) {
    echo "-- $label\n";
    // TTLs of a minute: none runs out while the test waits on a busy machine
    $ta = $a->lockShared('s612', 60000);
    $tb = $b->lockShared('s612', 60000);
    echo "two shared holders: ", var_export(is_string($ta) && is_string($tb), true),
        ", validity left: ", var_export($a->getValidity('s612') > 30000 && $b->getValidity('s612') > 30000, true), "\n";
    $up = array_filter($nodes, fn($s) => $s->isRunning());
    // a quorum at least (the decision does not wait for the last nodes' answers)
    echo "a quorum of nodes has both: ", var_export(count(array_filter($up, fn($s) => $s->client()->cmd('ZCARD', $skey) === 2)) >= 3, true), "\n";
    echo "lock() meanwhile: ", var_export($w->lock('s612', 5000, 0.0), true), "\n";
    echo "extend a shared one: ", var_export($a->extend('s612', $ta, 60000), true), "\n";
    $a->unlock('s612', $ta);
    echo "lock() with one shared holder left: ", var_export($w->lock('s612', 5000, 0.0), true), "\n";
    // the last shared release wakes a waiting lock(): its stats() say so
    // (woken, not its own recheck: counts, not an elapsed time under the 2 s
    // recheck, which a busy machine may outlast); the holder lets go once
    // the waiter is seen blocked in XREAD on every live node; a round that
    // met the recheck as the holder let go is run again (logged); a node
    // that is down fails each of the waiter's blocking reads there (counted)
    $tw = null;
    $seen = rl_timing_until_woken("s612 ($label)", function (int $n) use ($b, $w, $nodes, &$tb, &$tw) {
        if ($n > 1) {   // the last round's waiter took it: a shared holder again
            $w->unlock('s612', $tw);
            $tb = $b->lockShared('s612', 60000);
        }
        $live = array_map(fn($s) => $s->addr(), array_filter($nodes, fn($s) => $s->isRunning()));
        $pid = pcntl_fork();
        if ($pid === 0) {
            foreach ($live as $addr) {
                rl_timing_blocked(new RlTestRedis($addr), 's612');
            }
            $b->unlock('s612', $tb);
            exit(0);
        }
        $before = RedisLock::stats();
        $tw = $w->lock('s612', 60000, 30.0);
        $after = RedisLock::stats();
        pcntl_waitpid($pid, $st);
        return ['got' => is_string($tw)] + array_map(fn($k) => $after[$k] - $before[$k],
            ['waits_woken' => 'waits_woken', 'waits_rechecked' => 'waits_rechecked', 'wake_errors' => 'wake_errors']);
    }, 3, $down);
    echo "lock() woken by the last shared release: ", var_export($seen['got'] && rl_timing_woken($seen, $down), true),
        $seen['got'] && rl_timing_woken($seen, $down) ? '' : ' ' . json_encode($seen), "\n";
    echo "shared meanwhile: ", var_export($a->lockShared('s612', 1000), true), "\n";
    echo "unlock: ", var_export($w->unlock('s612', $tw), true), "\n";
    echo "keys left on live nodes: ", array_sum(array_map(fn($s) => $s->isRunning() ? $s->client()->exists('lock:s612', $skey) : 0, $nodes)), "\n";
};
$round('all 5 nodes up', 0);
$nodes[1]->kill();
$nodes[3]->kill();
$round('2 of 5 down', 2);
?>
--EXPECT--
-- all 5 nodes up
two shared holders: true, validity left: true
a quorum of nodes has both: true
lock() meanwhile: NULL
extend a shared one: true
lock() with one shared holder left: NULL
lock() woken by the last shared release: true
shared meanwhile: NULL
unlock: true
keys left on live nodes: 0
-- 2 of 5 down
two shared holders: true, validity left: true
a quorum of nodes has both: true
lock() meanwhile: NULL
extend a shared one: true
lock() with one shared holder left: NULL
lock() woken by the last shared release: true
shared meanwhile: NULL
unlock: true
keys left on live nodes: 0
