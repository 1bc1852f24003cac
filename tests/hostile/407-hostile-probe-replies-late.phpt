--TEST--
A fresh connection's first write carries the server probes beside the lock (issue 35): their replies arriving a byte at a time, or only after the call that sent them gave the node up (read by the next call, a byte at a time), are never taken for a lock's or a release's reply: every fencing number is the count its own acquisition made
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../hostile.inc';

$nodes = [];
for ($i = 0; $i < 3; $i++) {
    $nodes[] = new RlTestRedis(rl_test_server($i));
    foreach ($nodes[$i]->keys('*p407*') as $k) {
        $nodes[$i]->del($k);
    }
}

/** The fence counter of $key on $node (the key of $key's family that is not its lock). */
function counter(RlTestRedis $node, string $key): ?string
{
    foreach ($node->keys("*$key*") as $k) {
        if ($k !== "lock:$key") {
            return $k;
        }
    }
    return null;
}

echo "-- one node, every reply a byte at a time from the first write on\n";
$p = new RlHostileServer('garbage');
$p->proxyTo(rl_test_port(0));
$p->split();
$one = new RedisLock($p->addr(), ['fencing' => true, 'persistent' => false, 'timeout' => 5.0]);
for ($i = 0; $i < 2; $i++) {
    $t = $one->lock('p407a', 5000);
    $f = $t === null ? null : $one->fencingToken('p407a');
    var_dump($t !== null, $f !== null && (string)$f === $nodes[0]->get(counter($nodes[0], 'p407a')));
    var_dump($t !== null && $one->unlock('p407a', $t));
}

echo "-- RedLock: node 1's replies to its first write come only with its next call\n";
$w = new RedLock(rl_test_servers(3), 10, 1, ['fencing' => true]);
$t = $w->lock('p407b', 5000);
var_dump($t !== null && $w->unlock('p407b', $t));
$until = microtime(true) + 10;
while (($nodes[0]->exists('lock:p407b') + $nodes[1]->exists('lock:p407b') + $nodes[2]->exists('lock:p407b'))
       && microtime(true) < $until) {
    usleep(10000);
}
$counter = counter($nodes[0], 'p407b') ?? counter($nodes[1], 'p407b') ?? counter($nodes[2], 'p407b');
foreach ([1000, 10, 10] as $i => $seed) {
    $nodes[$i]->set($counter, (string)$seed);
}
$q = new RlHostileServer('garbage');
$q->proxyTo(rl_test_port(0));
$q->lagAt('COMMAND');                  // in a fresh connection's first write only
$lock = new RedLock([$q->addr(), rl_test_server(1), rl_test_server(2)], 10, 1,
                    ['fencing' => true, 'persistent' => false, 'timeout' => 5.0]);
$t = $lock->lock('p407b', 5000);       // nodes 2 and 3 decide it (11); node 1 counts 1001, unheard
// (decided without node 1: its command may reach the server a moment later)
for ($until = microtime(true) + 30; $nodes[0]->get($counter) === '1000' && microtime(true) < $until;) {
    usleep(10000);
}
var_dump($t !== null ? $lock->fencingToken('p407b') : null, $nodes[0]->get($counter));
var_dump($lock->unlock('p407b', $t));  // sent to node 1 too: what it owed comes back now, a byte at a time
// node 2 is taken elsewhere: node 1's answer decides the next one
$nodes[1]->set('lock:p407b', 'elsewhere', 'PX', 30000);
$t = $lock->lock('p407b', 5000);
var_dump($t !== null ? $lock->fencingToken('p407b') : null, $nodes[0]->get($counter));
var_dump($t !== null && $lock->unlock('p407b', $t));

foreach ($nodes as $n) {
    foreach ($n->keys('*p407*') as $k) {
        $n->del($k);
    }
}
?>
--EXPECT--
-- one node, every reply a byte at a time from the first write on
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- RedLock: node 1's replies to its first write come only with its next call
bool(true)
int(11)
string(4) "1001"
bool(true)
int(1002)
string(4) "1002"
bool(true)
