--TEST--
RedLock fencing when write-backs are lost (issue 35, the duplicated number of test 601): acquisition B holds nodes 4 and 5, counted there first, while its commands to nodes 1-3 are held back; A takes nodes 1-3 (the largest count on node 1) and its raises to nodes 2 and 3 never arrive; B then gets nodes 2 and 3. A raise counted on a node the acquisition does not hold (B's) must not make A's number hold, or B gets it again
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(5); ?>
--FILE--
<?php
require __DIR__ . '/../hostile.inc';

// Nodes 1-3 are behind proxies (nodes 4 and 5 are reached directly). Every
// raise of a number from 7777770 on to node 2 or 3 is lost with its
// connection, as the reverted prototype's (9e191f9) raise was once when it
// was abandoned; B's commands carry its TTL, 98765, which the proxies hold.
$nodes = [];
for ($i = 0; $i < 5; $i++) {
    $nodes[] = new RlTestRedis(rl_test_server($i));
}
$proxies = [];
for ($i = 0; $i < 3; $i++) {
    $proxies[$i] = new RlHostileServer('garbage');
    $proxies[$i]->proxyTo(rl_test_port($i));
}
$via = [$proxies[0]->addr(), $proxies[1]->addr(), $proxies[2]->addr(), rl_test_server(3), rl_test_server(4)];
foreach ($nodes as $n) {
    foreach ($n->keys('*f406*') as $k) {
        $n->del($k);
    }
}

/** Waits until the nodes $which hold no lock of f406 (a release the decision did not wait for runs a moment later). */
function free_on(array $nodes, array $which): void
{
    $until = microtime(true) + (rl_under_valgrind() ? 60 : 10);
    foreach ($which as $i) {
        while ($nodes[$i]->exists('lock:f406')) {
            if (microtime(true) > $until) {
                echo "node $i still locked\n";
                return;
            }
            usleep(10000);
        }
    }
}

// the fence counter's name (and the scripts cached), then every node's
// seeded (a node the decision did not wait for may have none yet: the same
// name everywhere)
$w = new RedLock($via, 10, 1, ['fencing' => true]);
$t = $w->lock('f406', 5000);
var_dump($t !== null && $w->unlock('f406', $t));
free_on($nodes, [0, 1, 2, 3, 4]);
$counter = null;
foreach ($nodes as $n) {
    $counter ??= $n->keys('*f406*')[0] ?? null;
}
$seed = [7777776, 5, 5, 7777776, 7777776];
foreach ($nodes as $i => $n) {
    $n->set($counter, (string)$seed[$i]);
}
$proxies[1]->dropAt('777777');
$proxies[2]->dropAt('777777');
foreach ($proxies as $p) {
    $p->holdAt('98765');
}

$b = rl_php_child_start('$via = ' . var_export($via, true) . ';' . <<<'PHP'
$lock = new RedLock($via, 10, 1, ['fencing' => true, 'timeout' => 30.0]);
$t = $lock->lock('f406', 98765);
echo $t === null ? "none\n" : $lock->fencingToken('f406') . "\n";
PHP);
// B holds nodes 4 and 5 (counted 7777777 there); nodes 1-3 have its commands held
$until = microtime(true) + (rl_under_valgrind() ? 60 : 10);
while (!($nodes[3]->exists('lock:f406') && $nodes[4]->exists('lock:f406')
         && $proxies[0]->held() && $proxies[1]->held() && $proxies[2]->held())) {
    if (microtime(true) > $until) {
        echo "B never got that far\n";
        break;
    }
    usleep(20000);
}

// A: nodes 1 (7777777), 2 and 3 (6); 4 and 5 are B's
$a = new RedLock($via, 10, 1, ['fencing' => true, 'timeout' => 2.0]);
$ta = $a->lock('f406', 8000);
$fa = $ta === null ? null : $a->fencingToken('f406');
echo 'A: ', $ta === null ? 'not acquired' : 'acquired', "\n";
if ($ta === null) {
    free_on($nodes, [0, 1, 2]);        // what A took is given back
}
var_dump($proxies[0]->release());      // B's command to node 1 runs (refused while A holds it)
if ($ta !== null) {
    var_dump($a->unlock('f406', $ta));
}
free_on($nodes, [1, 2]);
var_dump($proxies[1]->release(), $proxies[2]->release());   // B gets nodes 2 and 3
[$exit, $out, $err] = $b->wait(rl_under_valgrind() ? 120 : 60);
$fb = trim($out) === 'none' ? null : (int)trim($out);
echo 'B: ', $exit === 0 ? ($fb === null ? 'not acquired' : 'acquired') : "exit $exit: $out $err", "\n";
echo $fa !== null && $fa === $fb ? "A and B both got $fa" : 'no number given twice', "\n";

foreach ($nodes as $n) {
    foreach ($n->keys('*f406*') as $k) {
        $n->del($k);
    }
}
?>
--EXPECT--
bool(true)
A: not acquired
int(1)
int(1)
int(1)
B: acquired
no number given twice
