--TEST--
RedLock deadlock detection with a node down: a cycle of 2 processes on a 3-node RedLock whose third node is dead is found by the quorum of live nodes: the wait that closes it gets RedisLockDeadlockException at once, the other has its lock; the waits' records are gone after
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$nodes = [new RlTestServer(), new RlTestServer(), new RlTestServer()];
$servers = array_map(fn($n) => $n->addr(), $nodes);
$nodes[2]->kill();

$party = fn(string $mine, string $theirs, int $delay) => rl_php_child_start('
    $servers = ' . var_export($servers, true) . ';
    $l = new RedLock($servers, 10, 1, ["connect_timeout" => 0.3, "timeout" => 0.5]);
    $r = new RlTestRedis($servers[0]);
    $t = $l->lock(' . var_export($mine, true) . ', 30000);
    $r->cmd("INCR", "in825");
    rl_wait_until(fn() => (int)$r->get("in825") >= 2, 30.0);
    usleep(' . $delay . ' * 1000);
    $start = microtime(true);
    try {
        $u = $l->lock(' . var_export($theirs, true) . ', 30000, 10.0);
        echo "had the other\'s lock: ", $u !== null ? "yes" : "no", "\n";
        $l->unlock(' . var_export($theirs, true) . ', $u);
    } catch (RedisLockDeadlockException $e) {
        echo get_class($e), microtime(true) - $start < 1.5 ? " at once" : " late", "\n";
    }
    $l->unlock(' . var_export($mine, true) . ', $t);
');
$p1 = $party('a825', 'b825', 0);
$p2 = $party('b825', 'a825', 400);
[, $o1, $e1] = $p1->wait(60);
[, $o2, $e2] = $p2->wait(60);
echo "first: ", trim($o1 . $e1), "\nsecond: ", trim($o2 . $e2), "\n";
foreach ([0, 1] as $i) {
    echo "node $i: records ", $nodes[$i]->client()->cmd('EXISTS', "lock:\0waits"), ", locks ", count($nodes[$i]->client()->keys('lock:*825*')), "\n";
}
?>
--EXPECT--
first: had the other's lock: yes
second: RedisLockDeadlockException at once
node 0: records 0, locks 0
node 1: records 0, locks 0
