--TEST--
Waiting: 8 processes x 150 read-sleep-write increments under RedisLock with waiting lose no update
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$n = rl_under_valgrind() ? 10 : 150;
$r = new RlTestRedis(rl_test_server(1));
$r->del('rl201-counter');
$code = <<<'PHP'
$n = (int)getenv('RL201_N');
$lock = new RedisLock(rl_test_server(0));
$r = new RlTestRedis(rl_test_server(1));
for ($i = 0; $i < $n; $i++) {
    $t = $lock->lock('rl201', 5000, 60.0);
    if ($t === null) { echo "timed out\n"; exit(1); }
    $v = (int)$r->get('rl201-counter');
    usleep(100);
    $r->set('rl201-counter', (string)($v + 1));
    $lock->unlock('rl201', $t);
}
echo "done\n";
PHP;
putenv("RL201_N=$n");
$children = [];
for ($p = 0; $p < 8; $p++) {
    $children[] = rl_php_child_start($code);
}
$ok = 0;
foreach ($children as $c) {
    [$exit, $out, $err] = $c->wait(600);
    $ok += ($exit === 0 && trim($out) === 'done');
    if ($exit !== 0) echo "child failed: $out $err\n";
}
echo "children ok: $ok\n";
echo $r->get('rl201-counter') === (string)(8 * $n) ? "no update lost\n" : "lost updates: " . $r->get('rl201-counter') . "\n";
$r->del('rl201-counter');
echo "keys left: ", count($r->keys('lock:rl201*')) + count((new RlTestRedis(rl_test_server(0)))->keys('lock:rl201*')), "\n";
?>
--EXPECT--
children ok: 8
no update lost
keys left: 0
