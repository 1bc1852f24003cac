--TEST--
Shared locks on RedLock (5 nodes): shared holders together on a quorum, a lock() refused meanwhile and had after the last release; the same with 2 of 5 nodes down; waiting woken at release
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$nodes = [];
for ($i = 0; $i < 5; $i++) $nodes[] = new RlTestServer();
$addrs = array_map(fn($s) => $s->addr(), $nodes);
$opts = ['timeout' => 0.3, 'connect_timeout' => 0.3];
$a = new RedLock($addrs, 10, 1, $opts);
$b = new RedLock($addrs, 10, 1, $opts);
$w = new RedLock($addrs, 10, 1, $opts);
$skey = rl_derived_key('lock:s612', 's');

$round = function (string $label) use ($a, $b, $w, $nodes, $skey) {
    echo "-- $label\n";
    $ta = $a->lockShared('s612', 5000);
    $tb = $b->lockShared('s612', 5000);
    echo "two shared holders: ", var_export(is_string($ta) && is_string($tb), true),
        ", validity left: ", var_export($a->getValidity('s612') > 4000 && $b->getValidity('s612') > 4000, true), "\n";
    $up = array_filter($nodes, fn($s) => $s->isRunning());
    // a quorum at least (the decision does not wait for the last nodes' answers)
    echo "a quorum of nodes has both: ", var_export(count(array_filter($up, fn($s) => $s->client()->cmd('ZCARD', $skey) === 2)) >= 3, true), "\n";
    echo "lock() meanwhile: ", var_export($w->lock('s612', 5000, 0.0), true), "\n";
    echo "extend a shared one: ", var_export($a->extend('s612', $ta, 8000), true), "\n";
    $a->unlock('s612', $ta);
    echo "lock() with one shared holder left: ", var_export($w->lock('s612', 5000, 0.0), true), "\n";
    // the last shared release wakes a waiting lock()
    $pid = pcntl_fork();
    if ($pid === 0) {
        usleep(300000);
        $b->unlock('s612', $tb);
        exit(0);
    }
    $start = microtime(true);
    $tw = $w->lock('s612', 5000, 5.0);
    $took = microtime(true) - $start;
    pcntl_waitpid($pid, $st);
    echo "lock() woken by the last shared release: ", var_export(is_string($tw) && $took < 2.0, true), "\n";
    echo "shared meanwhile: ", var_export($a->lockShared('s612', 1000), true), "\n";
    echo "unlock: ", var_export($w->unlock('s612', $tw), true), "\n";
    echo "keys left on live nodes: ", array_sum(array_map(fn($s) => $s->isRunning() ? $s->client()->exists('lock:s612', $skey) : 0, $nodes)), "\n";
};
$round('all 5 nodes up');
$nodes[1]->kill();
$nodes[3]->kill();
$round('2 of 5 down');
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
