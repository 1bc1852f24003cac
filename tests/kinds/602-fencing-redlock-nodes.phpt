--TEST--
Fencing (RedLock, 5 nodes): the number is the largest count among the nodes that granted, written back until a quorum holds it; with counters that differ (set by the test; one raised far ahead), a node down and brought back empty, and a node whose counter cannot count, the numbers still strictly increase
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$nodes = [];
for ($i = 0; $i < 5; $i++) {
    $nodes[] = new RlTestServer();
}
$fkey = rl_derived_key('lock:f602', 'f');
$counters = fn() => array_map(fn($s) => $s->isRunning() ? $s->client()->get($fkey) : 'down', $nodes);
$rl = new RedLock(array_map(fn($s) => $s->addr(), $nodes), 10, 3, ['fencing' => true, 'timeout' => 0.5]);
$seen = [];
$take = function () use ($rl, &$seen) {
    $t = $rl->lock('f602', 10000);
    if ($t === null) { echo "not acquired\n"; return; }
    $seen[] = $rl->fencingToken('f602');
    $rl->unlock('f602', $t);
};

// counters that differ: the largest count among the grants read wins (101:
// any quorum of 3 includes a node at 100), and it is written back until a
// quorum has it
foreach ([100, 100, 7, null, 100] as $i => $c) {
    if ($c !== null) $nodes[$i]->client()->set($fkey, (string)$c);
}
$take();
echo "first: ", end($seen), "\n";
$c = $counters();
// a quorum holds it (counted there, or written back)
echo "a quorum at 101 or more: ", var_export(count(array_filter($c, fn($v) => (int)$v >= 101)) >= 3, true), "\n";
$take();
echo "second: ", end($seen), "\n";

// a node down: the others have the number
$nodes[1]->kill();
for ($i = 0; $i < 5; $i++) $take();
// back with no data (no persistence): its counter starts again at 0
$nodes[1]->restart();
for ($i = 0; $i < 5; $i++) $take();
// a minority raised far ahead by someone else: the number follows the largest
$nodes[3]->client()->set($fkey, '5000');
$take();
// a counter that is not a number on one node: an error vote there, the others decide
$nodes[4]->client()->set($fkey, 'garbage');
for ($i = 0; $i < 3; $i++) $take();
echo "garbage kept: ", var_export($nodes[4]->client()->get($fkey), true), ", lock key there: ", $nodes[4]->client()->exists('lock:f602'), "\n";

$ok = true;
for ($i = 1; $i < count($seen); $i++) {
    if ($seen[$i] <= $seen[$i - 1]) { $ok = false; echo "#$i: {$seen[$i]} after {$seen[$i - 1]}\n"; }
}
echo count($seen), " acquisitions, ", $ok ? 'strictly increasing' : 'NOT increasing', "\n";
// no lock key left anywhere
echo "lock keys left: ", array_sum(array_map(fn($s) => $s->client()->exists('lock:f602'), $nodes)), "\n";


// two nodes (a quorum of both): the one behind is raised to the number
$pair = new RedLock([$nodes[0]->addr(), $nodes[2]->addr()], 10, 1, ['fencing' => true]);
$nodes[0]->client()->set($fkey, '70000');
$nodes[2]->client()->set($fkey, '12');
$t = $pair->lock('f602', 10000);
echo "pair: ", $pair->fencingToken('f602'), ", behind raised to ", $nodes[2]->client()->get($fkey), "\n";
$pair->unlock('f602', $t);
?>
--EXPECT--
first: 101
a quorum at 101 or more: true
second: 102
garbage kept: 'garbage', lock key there: 0
16 acquisitions, strictly increasing
lock keys left: 0
pair: 70001, behind raised to 70001
