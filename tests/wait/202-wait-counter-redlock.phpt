--TEST--
Waiting: 6 processes x 100 read-sleep-write increments under a 3-node RedLock with waiting lose no update
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(4); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$n = rl_under_valgrind() ? 10 : 100;
$r = new RlTestRedis(rl_test_server(3));
$r->del('rl202-counter');
$code = <<<'PHP'
$n = (int)getenv('RL202_N');
$lock = new RedLock(rl_test_servers(3));
$r = new RlTestRedis(rl_test_server(3));
for ($i = 0; $i < $n; $i++) {
    $t = $lock->lock('rl202', 5000, 60.0);
    if ($t === null) { echo "timed out\n"; exit(1); }
    $v = (int)$r->get('rl202-counter');
    usleep(100);
    $r->set('rl202-counter', (string)($v + 1));
    $lock->unlock('rl202', $t);
}
echo "done\n";
PHP;
putenv("RL202_N=$n");
$children = [];
for ($p = 0; $p < 6; $p++) {
    $children[] = rl_php_child_start($code);
}
$ok = 0;
foreach ($children as $c) {
    [$exit, $out, $err] = $c->wait(600);
    $ok += ($exit === 0 && trim($out) === 'done');
    if ($exit !== 0) echo "child failed: $out $err\n";
}
echo "children ok: $ok\n";
echo $r->get('rl202-counter') === (string)(6 * $n) ? "no update lost\n" : "lost updates: " . $r->get('rl202-counter') . "\n";
$r->del('rl202-counter');
$left = 0;
for ($i = 0; $i < 3; $i++) $left += count((new RlTestRedis(rl_test_server($i)))->keys('lock:rl202*'));
echo "keys left: $left\n"; for ($i = 0; $i < 3; $i++) foreach (array_slice((new RlTestRedis(rl_test_server($i)))->keys("lock:rl202*"), 0, 3) as $k) echo addcslashes($k, "\0"), " ttl ", (new RlTestRedis(rl_test_server($i)))->pttl($k), "\n";
?>
--EXPECT--
children ok: 6
no update lost
keys left: 0
