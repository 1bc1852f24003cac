--TEST--
Cluster: 6 processes x 100 read-sleep-write increments under cluster locks with waiting lose no update; the counters live on the three masters
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';

$c = new RlTestCluster();
$n = rl_under_valgrind() ? 10 : 100;
// three resources, one counter each (in the lock's slot, by its hash tag)
$res = [];
for ($i = 0; count($res) < 3; $i++) {
    $m = $c->masterFor("lock:{c503-$i}");
    $res[$m] ??= "{c503-$i}";
}
$code = '
$lock = new RedisLock(["cluster" => ' . var_export($c->seeds(), true) . ']);
$res = ' . var_export(array_values($res), true) . ';
$where = ' . var_export(array_keys($res), true) . ';
for ($i = 0; $i < ' . $n . '; $i++) {
    $k = $i % 3;
    $t = $lock->lock($res[$k], 5000, 60.0);
    if ($t === null) { echo "timed out\n"; exit(1); }
    $r = new RlTestRedis($where[$k]);
    $v = (int)$r->get("counter:" . $res[$k]);
    usleep(100);
    $r->set("counter:" . $res[$k], (string)($v + 1));
    $lock->unlock($res[$k], $t);
}
echo "done\n";
';
$children = [];
for ($p = 0; $p < 6; $p++) {
    $children[] = rl_php_child_start($code);
}
$ok = 0;
foreach ($children as $ch) {
    [$exit, $out, $err] = $ch->wait(600);
    $ok += ($exit === 0 && trim($out) === 'done');
    if ($exit !== 0) echo "child failed: $out $err\n";
}
echo "children ok: $ok\n";
$sum = 0;
foreach ($res as $m => $r) {
    $sum += (int)$c->cmd($m, 'GET', "counter:$r");
}
echo $sum === 6 * $n ? "no update lost\n" : "lost updates: $sum of " . 6 * $n . "\n";
$left = 0;
foreach ($c->masters() as $m) {
    $left += count($c->cmd($m, 'KEYS', 'lock:*'));
}
echo "lock keys left: $left\n";
?>
--EXPECT--
children ok: 6
no update lost
lock keys left: 0
