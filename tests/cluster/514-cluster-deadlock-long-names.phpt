--TEST--
Cluster: a deadlock between resources whose names exceed 64 KiB, on two masters, is detected: the waiter reads each long name in parts from the waits' records (their master) and checks each lock on its own master; the wait that closes the cycle gets RedisLockDeadlockException at once, naming them cut
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); rl_skip_unless_servers(1); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
if (rl_under_valgrind()) {
    ini_set('pcre.jit', '0');   // valgrind cannot follow PCRE's JIT code
}

$c = new RlTestCluster();
$seed = $c->seeds()[0];
// two long names on two masters
$names = [];
for ($i = 0; count($names) < 2; $i++) {
    $n = "c514-$i-" . str_repeat('z', 70000);
    $names[$c->masterFor("lock:$n")] ??= $n;
}
[$a, $b] = array_values($names);
$barrier = $c->masterFor('in514');
$edges = $c->masterFor("lock:\0waits");
$c->cmd($barrier, 'DEL', 'in514');
$party = fn(string $mine, string $theirs, int $records) => rl_php_child_start('
    $r = new RlTestRedis(' . var_export($barrier, true) . ');
    $e = new RlTestRedis(' . var_export($edges, true) . ');
    $l = new RedisLock(["cluster" => [' . var_export($seed, true) . ']]);
    $t = $l->lock(' . var_export($mine, true) . ', 30000);
    $r->cmd("INCR", "in514");
    rl_wait_until(fn() => (int)$r->cmd("GET", "in514") >= 2, 30.0);
    rl_wait_until(fn() => $e->cmd("HLEN", "lock:\0waits") >= ' . $records . ', 30.0);
    $before = RedisLock::stats();
    try {
        $u = $l->lock(' . var_export($theirs, true) . ', 30000, 5.0);
        echo "had the other\'s lock: ", $u !== null ? "yes" : "no", "\n";
        $u !== null && $l->unlock(' . var_export($theirs, true) . ', $u);
    } catch (RedisLockDeadlockException $e) {
        $after = RedisLock::stats();
        $ended = $after["waits_woken"] - $before["waits_woken"] + $after["waits_rechecked"] - $before["waits_rechecked"];
        echo get_class($e), $ended === 0 ? " at once" : " after $ended waits", ": ", preg_replace("/z{20,}/", "~", $e->getMessage()), "\n";
    }
    $l->unlock(' . var_export($mine, true) . ', $t);
');
$p1 = $party($a, $b, 0);
$p2 = $party($b, $a, 1);
[, $o1, $e1] = $p1->wait(60);
[, $o2, $e2] = $p2->wait(60);
echo "first: ", trim($o1 . $e1), "\nsecond: ", preg_replace('/c514-\d+-/', 'c514-N-', trim($o2 . $e2)), "\n";
$c->cmd($barrier, 'DEL', 'in514');
?>
--EXPECTF--
first: had the other's lock: yes
second: RedisLockDeadlockException at once: waiting for "c514-N-~..." (%d bytes) would deadlock: it is held by a process that waits for "c514-N-~..." (%d bytes), held by this process
