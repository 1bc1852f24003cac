--TEST--
RedLock: two of five nodes stopped (SIGSTOP): the lock is won without waiting for them; the stall costs its timeout once
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

// a stalled node's timeout long enough that no load makes a quorum of
// three live nodes take as long: 'did not wait for it' stays a state
$timeout = rl_under_valgrind() ? 10.0 : 6.0;
$nodes = [];
for ($i = 0; $i < 5; $i++) $nodes[] = new RlTestServer();
$servers = array_map(fn($n) => $n->addr(), $nodes);
$lock = new RedLock($servers, 10, 1, ['timeout' => $timeout]);
$t = $lock->lock('warm-up', 1000);          // every node connected
$lock->unlock('warm-up', $t);

$nodes[1]->pause();
$nodes[3]->pause();
$start = hrtime(true);
$t = $lock->lock('rl103', 20000);
$lockTime = (hrtime(true) - $start) / 1e9;
echo "won: ", is_string($t) ? 'yes' : 'no', "\n";
echo "lock waited for a stalled node: ", $lockTime >= $timeout ? "yes ($lockTime s)" : 'no', "\n";
foreach ([0, 2, 4] as $i) {
    echo "node $i: ", $nodes[$i]->client()->get('lock:rl103') === $t ? 'ours' : 'missing', "\n";
}
$start = hrtime(true);
var_dump($lock->unlock('rl103', $t));        // waits for the stalled nodes' timeout, once
$unlockTime = (hrtime(true) - $start) / 1e9;
echo "unlock bounded by one timeout: ", $unlockTime < 2 * $timeout ? 'yes' : "no ($unlockTime s)", "\n";

$start = hrtime(true);
$t2 = $lock->lock('rl103b', 20000);
$lock->unlock('rl103b', $t2);
$again = (hrtime(true) - $start) / 1e9;
echo "next cycle waits for the stalled nodes again: ", $again >= $timeout ? "yes ($again s)" : 'no', "\n";

$nodes[1]->resume();
$nodes[3]->resume();
usleep((int)(max(1.0, $timeout) * 1e6) + 200000); // the down window passes
$t3 = $lock->lock('rl103c', 20000);
$onAll = 0;
foreach ($nodes as $n) $onAll += $n->client()->get('lock:rl103c') === $t3;
echo "after resume, on all nodes: $onAll\n";
var_dump($lock->unlock('rl103c', $t3));
$left = 0;
foreach ($nodes as $n) $left += count($n->client()->keys('lock:*'));
echo "keys left: $left\n";
?>
--EXPECT--
won: yes
lock waited for a stalled node: no
node 0: ours
node 2: ours
node 4: ours
bool(true)
unlock bounded by one timeout: yes
next cycle waits for the stalled nodes again: no
after resume, on all nodes: 5
bool(true)
keys left: 0
