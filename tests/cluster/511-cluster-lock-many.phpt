--TEST--
Cluster lockMany(): resources of one slot (a hash tag) in one script, all or none; resources on several masters taken one by one in key order, released when one is not had; waiting across slots; unlockMany() either way; a deadlock across masters (the waits' records in one slot) is detected
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); rl_skip_unless_servers(1); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';

$c = new RlTestCluster();
$seed = $c->seeds()[0];
$l = new RedisLock(['cluster' => [$seed]]);
$other = new RedisLock(['cluster' => [$seed]]);
$get = fn(string $name) => $c->cmd($c->masterFor("lock:$name"), 'GET', "lock:$name");
$held = fn(string $name) => $get($name) !== null ? 'x' : '-';

echo "-- one slot\n";
$same = ['{o511}a', '{o511}b', '{o511}c'];
$t = $l->lockMany($same, 30000);
echo "taken: ", implode(' ', array_map($held, $same)), "\n";
var_dump($other->lockMany(['{o511}d', '{o511}a'], 30000));        // a held: nothing taken
echo "d taken: ", $held('{o511}d'), "\n";
var_dump($l->unlockMany($same, $t));

echo "-- several masters\n";
$spread = [];
for ($i = 0; count($spread) < 3; $i++) {
    $spread[$c->masterFor("lock:s511-$i")] ??= "s511-$i";
}
$spread = array_values($spread);
sort($spread);
$t = $l->lockMany($spread, 30000);
echo "taken on 3 masters: ", implode(' ', array_map($held, $spread)), "\n";
$ok = true;
foreach ($spread as $name) {
    $ok = $ok && $get($name) === $t;
}
echo "one token: ", $ok ? 'yes' : 'no', "\n";
var_dump($l->unlockMany($spread, $t));
echo "after: ", implode(' ', array_map($held, $spread)), "\n";
$h = $other->lock($spread[2], 30000);                             // the last in key order
var_dump($l->lockMany($spread, 30000));
echo "the ones before it released: ", implode(' ', array_map($held, $spread)), "\n";

echo "-- waiting across slots\n";
$child = rl_php_child_start('
    usleep(300000);
    $seed = ' . var_export($seed, true) . ';
    (new RedisLock(["cluster" => [$seed]]))->forceUnlock(' . var_export($spread[2], true) . ');
');
$t = $l->lockMany($spread, 30000, 10.0);
echo "had them when it was released: ", is_string($t) ? 'yes' : 'no', "\n";
$child->wait(30);
var_dump($l->unlockMany($spread, $t));

echo "-- a deadlock across masters\n";
[$a, $b] = [$spread[0], $spread[1]];
$barrier = $c->masterFor('in511');                                   // both in before either waits
$c->cmd($barrier, 'DEL', 'in511');
$party = fn(string $mine, string $theirs, int $delay) => rl_php_child_start('
    $seed = ' . var_export($seed, true) . ';
    $r = new RlTestRedis(' . var_export($barrier, true) . ');
    $l = new RedisLock(["cluster" => [$seed]]);
    $t = $l->lock(' . var_export($mine, true) . ', 30000);
    $r->cmd("INCR", "in511");
    rl_wait_until(fn() => (int)$r->cmd("GET", "in511") >= 2, 30.0);
    usleep(' . $delay . ' * 1000);
    try {
        $u = $l->lock(' . var_export($theirs, true) . ', 30000, 10.0);
        echo "had the other\'s lock: ", $u !== null ? "yes" : "no", "\n";
        $l->unlock(' . var_export($theirs, true) . ', $u);
    } catch (RedisLockDeadlockException $e) {
        echo get_class($e), "\n";
    }
    $l->unlock(' . var_export($mine, true) . ', $t);
');
$p1 = $party($a, $b, 0);
$p2 = $party($b, $a, 300);
[, $o1, $e1] = $p1->wait(60);
[, $o2, $e2] = $p2->wait(60);
echo "first: ", trim($o1 . $e1), "\nsecond: ", trim($o2 . $e2), "\n";
$c->cmd($barrier, 'DEL', 'in511');
echo "edges left: ", $c->cmd($c->masterFor("lock:\0waits"), 'EXISTS', "lock:\0waits"), "\n";
?>
--EXPECT--
-- one slot
taken: x x x
NULL
d taken: -
bool(true)
-- several masters
taken on 3 masters: x x x
one token: yes
bool(true)
after: - - -
NULL
the ones before it released: - - x
-- waiting across slots
had them when it was released: yes
bool(true)
-- a deadlock across masters
first: had the other's lock: yes
second: RedisLockDeadlockException
edges left: 0
