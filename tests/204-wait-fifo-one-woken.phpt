--TEST--
Waiting: a release wakes one waiter, not all, and waiters get the lock in arrival order
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/redislock_test.inc';

$holder = new RedisLock(rl_test_server(0));
$t = $holder->lock('rl204', 30000);
$code = <<<'PHP'
$l = new RedisLock(rl_test_server(0));
echo "waiting\n";
$t = $l->lock('rl204', 30000, 30.0);
echo "got it at ", hrtime(true), "\n";
usleep(150000);
$l->unlock('rl204', $t);
PHP;
$waiters = [];
$r = new RlTestRedis(rl_test_server(0));
for ($i = 0; $i < 4; $i++) {
    $waiters[$i] = rl_php_child_start($code);
    // the next one starts once this one is in the queue
    rl_wait_until(fn() => $r->cmd('LLEN', "lock:rl204\0q") === $i + 1, 30);
}
echo "queued: ", $r->cmd('LLEN', "lock:rl204\0q"), "\n";
$holder->unlock('rl204', $t);
usleep(60000);
$holding = 0;
foreach ($waiters as $w) $holding += str_contains($w->output(), 'got it');
echo "holding 60 ms after the release: $holding\n";
$times = [];
foreach ($waiters as $i => $w) {
    [$exit, $out, $err] = $w->wait(60);
    preg_match('/got it at (\d+)/', $out, $m);
    $times[$i] = (int)($m[1] ?? 0);
    if ($exit !== 0) echo "waiter $i: $out $err\n";
}
$order = $times;
asort($order);
echo "order of acquisition: ", implode(' ', array_keys($order)), "\n";
echo "keys left: ", count($r->keys('lock:rl204*')), "\n";
?>
--EXPECT--
queued: 4
holding 60 ms after the release: 1
order of acquisition: 0 1 2 3
keys left: 0
