--TEST--
RedLock deadlock detection with a node down: a cycle of 2 processes on a 3-node RedLock whose third node is dead is found by the quorum of live nodes: the wait that closes it gets RedisLockDeadlockException at once (before any of its waits ended), the other has its lock; the waits' records are gone after
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

// the second waits once the first's wait is recorded (on both live nodes: a
// state, not a delay); "at once": told before any of its waits ended (stats()); node
// timeouts a loaded machine's replies keep within (the dead node refuses at once)
$party = fn(string $mine, string $theirs, int $edges) => rl_php_child_start('
    $servers = ' . var_export($servers, true) . ';
    $l = new RedLock($servers, 10, 1, ["connect_timeout" => 5.0, "timeout" => 5.0]);
    $r = new RlTestRedis($servers[0]);
    $t = $l->lock(' . var_export($mine, true) . ', 30000);
    $r->cmd("INCR", "in825");
    rl_wait_until(fn() => (int)$r->get("in825") >= 2, 30.0);
    $r1 = new RlTestRedis($servers[1]);
    rl_wait_until(fn() => min($r->cmd("HLEN", "lock:\0waits"), $r1->cmd("HLEN", "lock:\0waits")) >= ' . $edges . ', 30.0);
    $before = RedisLock::stats();
    try {
        $u = $l->lock(' . var_export($theirs, true) . ', 30000, 30.0);
        echo "had the other\'s lock: ", $u !== null ? "yes" : "no", "\n";
        $l->unlock(' . var_export($theirs, true) . ', $u);
    } catch (RedisLockDeadlockException $e) {
        $after = RedisLock::stats();
        $ended = $after["waits_woken"] - $before["waits_woken"] + $after["waits_rechecked"] - $before["waits_rechecked"];
        echo get_class($e), $ended === 0 ? " at once" : " after $ended waits", "\n";
    }
    $l->unlock(' . var_export($mine, true) . ', $t);
');
$p1 = $party('a825', 'b825', 0);
$p2 = $party('b825', 'a825', 1);
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
