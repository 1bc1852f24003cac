--TEST--
RedLock: a node benched after a timeout is asked again when the quorum cannot be had without it (node A stalled and resumed, then B and C stop: A, D and E grant the lock)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$timeout = rl_under_valgrind() ? 2.0 : 0.5;
$nodes = [];
for ($i = 0; $i < 5; $i++) $nodes[] = new RlTestServer();
$names = ['A', 'B', 'C', 'D', 'E'];
$lock = new RedLock(array_map(fn($n) => $n->addr(), $nodes), 10, 1, ['timeout' => $timeout]);
$t = $lock->lock('warm-up', 1000);                 // every node connected
$lock->unlock('warm-up', $t);
$where = function (string $key, string $token, array $asked = [0, 1, 2, 3, 4]) use ($nodes, $names): string {
    $on = [];
    foreach ($asked as $i) {
        if ($nodes[$i]->client()->get("lock:$key") === $token) $on[] = $names[$i];
    }
    return implode(',', $on) ?: '-';
};

echo "-- A stalls: the lock is won on B, C, D, E; the unlock waits for A, which times out and is benched\n";
$nodes[0]->pause();
$t1 = $lock->lock('rl111a', 20000);
echo "won: ", is_string($t1) ? 'yes' : 'no', "\n";
echo "held on: ", $where('rl111a', $t1, [1, 2, 3, 4]), "\n";
var_dump($lock->unlock('rl111a', $t1));           // waits for every node: A times out
$nodes[0]->resume();

echo "-- while A is benched, B and C stop: only A, D and E answer\n";
$nodes[1]->pause();
$nodes[2]->pause();
try {
    $t2 = $lock->lock('rl111b', 20000);
    echo "won: ", is_string($t2) ? 'yes' : 'no', "\n";
    echo "held on: ", $where('rl111b', $t2, [0, 3, 4]), "\n";
    var_dump($lock->unlock('rl111b', $t2));
} catch (RedisLockException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}

echo "-- a benched node is not asked while the quorum can be had without it\n";
$t3 = $lock->lock('rl111c', 20000);                // B and C benched, A, D, E answer
echo "won: ", is_string($t3) ? 'yes' : 'no', "; held on: ", $where('rl111c', $t3, [0, 3, 4]), "\n";
$nodes[1]->resume();
$nodes[2]->resume();
echo "B and C hold nothing they were not asked for: ",
     $nodes[1]->client()->exists('lock:rl111c') + $nodes[2]->client()->exists('lock:rl111c') === 0 ? 'yes' : 'no', "\n";
var_dump($lock->unlock('rl111c', $t3));
usleep((int)(max(1.0, $timeout) * 1e6) + 200000);  // the down window passes: every node asked again
$t4 = $lock->lock('rl111d', 20000);
echo "after the window, held on: ", $where('rl111d', $t4), "\n";
var_dump($lock->unlock('rl111d', $t4));
$left = 0;
foreach ($nodes as $i => $n) {
    foreach ($n->client()->keys('lock:*') as $k) echo "left on {$names[$i]}: $k\n";
}
?>
--EXPECT--
-- A stalls: the lock is won on B, C, D, E; the unlock waits for A, which times out and is benched
won: yes
held on: B,C,D,E
bool(true)
-- while A is benched, B and C stop: only A, D and E answer
won: yes
held on: A,D,E
bool(true)
-- a benched node is not asked while the quorum can be had without it
won: yes; held on: A,D,E
B and C hold nothing they were not asked for: yes
bool(true)
after the window, held on: A,B,C,D,E
bool(true)
