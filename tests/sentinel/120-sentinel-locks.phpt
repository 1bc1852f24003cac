--TEST--
Sentinel: locks through a sentinel group (RedisLock, and a RedLock node that is a sentinel group beside plain nodes); the master is found on first use, not in the constructor, and cached per process
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); require_once __DIR__ . '/../sentinel.inc'; rl_skip_unless_sentinel(); rl_skip_unless_servers(2); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';

$g = new RlTestSentinelGroup('mymaster');
$master = $g->masterAddr();
$m = $g->client($master);
$group = ['sentinels' => $g->sentinelAddrs(), 'service' => 'mymaster'];

// constructing does no network I/O: no client on the sentinels or master yet
$before = $m->clientCount();
$lock = new RedisLock($group);
echo "constructor connected nobody: ", var_export($m->clientCount() === $before, true), "\n";

$t = $lock->lock('s120', 10000);
echo "locked on the master: ", var_export($m->get('lock:s120') === $t, true), "\n";
echo "replicated: ", var_export(rl_wait_until(fn() => $g->client($g->nodes[1]->addr())->get('lock:s120') === $t, 30.0), true), "\n";
$other = new RedisLock($group);
var_dump($other->lock('s120', 10000));       // held by $lock
var_dump($lock->extend('s120', $t, 20000));
var_dump($lock->unlock('s120', $t));
var_dump($m->exists('lock:s120'));

// waiting works through the group too (the wait connection goes to the master)
// (had within its wait, a long one: how soon is a loaded machine's, not the product's)
$short = $lock->lock('s120w', 300);
$w = $other->lock('s120w', 30000, 30.0);
echo "waiter got it after the holder's TTL: ", var_export(is_string($w) && $m->get('lock:s120w') === $w, true), "\n";
var_dump($other->unlock('s120w', $w));

// the array form also takes host/port arrays for the sentinels
[$h, $p] = explode(':', $g->sentinelAddrs()[1]);
$arr = new RedisLock(['sentinels' => [['host' => $h, 'port' => (int)$p], 'tcp://127.0.0.1:1'], 'service' => 'mymaster']);
$t2 = $arr->lock('s120b', 5000);
echo "host/port sentinel form: ", var_export($m->get('lock:s120b') === $t2, true), "\n";
var_dump($arr->unlock('s120b', $t2));

// RedLock: one node is the sentinel group, two are plain servers
$rl = new RedLock([$group, rl_test_server(0), rl_test_server(1)]);
$t3 = $rl->lock('s120c', 10000);
$on = [$m->get('lock:s120c') === $t3,
       (new RlTestRedis(rl_test_server(0)))->get('lock:s120c') === $t3,
       (new RlTestRedis(rl_test_server(1)))->get('lock:s120c') === $t3];
echo "RedLock on all three nodes: ", json_encode($on), "\n";
var_dump($rl->unlock('s120c', $t3));

// pool rows show the master and sentinels by address, nothing else
$rows = array_column(RedisLock::stats()['connections'], 'endpoint');
echo "master pooled: ", var_export(in_array($master, $rows, true), true), "\n";
echo "a sentinel pooled: ", var_export(count(array_intersect($g->sentinelAddrs(), $rows)) > 0, true), "\n";
?>
--EXPECT--
constructor connected nobody: true
locked on the master: true
replicated: true
NULL
bool(true)
bool(true)
int(0)
waiter got it after the holder's TTL: true
bool(true)
host/port sentinel form: true
bool(true)
RedLock on all three nodes: [true,true,true]
bool(true)
master pooled: true
a sentinel pooled: true
