--TEST--
Waiting: a release wakes one waiter, not all, and waiters get the lock in arrival order
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$holder = new RedisLock(rl_test_server(0));
$t = $holder->lock('rl204', 300000);
$code = <<<'PHP'
$l = new RedisLock(rl_test_server(0));
echo "waiting\n";
$t = $l->lock('rl204', 30000, 300.0);
echo "got it at ", hrtime(true), "\n";
// held until the test has looked at the queue (a state, not a time: a
// loaded machine may run the test late)
$r = new RlTestRedis(rl_test_server(0));
rl_wait_until(fn() => $r->exists('rl204-go') === 1, 120);
echo "released at ", hrtime(true), "\n";
$l->unlock('rl204', $t);
PHP;
$waiters = [];
$r->del('rl204-go');
for ($i = 0; $i < 4; $i++) {
    $waiters[$i] = rl_php_child_start($code);
    // the next one starts once this one is in the queue
    rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key("lock:rl204", "q")) === $i + 1, 120);
}
echo "queued: ", $r->cmd('LLEN', rl_derived_key("lock:rl204", "q")), "\n";
$holder->unlock('rl204', $t);
// The release woke one waiter: it took one entry off the queue, the others
// stay queued (they are not all trying).
rl_wait_until(fn() => str_contains($waiters[0]->output(), 'got it'), 120);
echo "queued while the first one holds: ", $r->cmd('LLEN', rl_derived_key("lock:rl204", "q")), "\n";
$r->set('rl204-go', '1');                            // each lets go once it has it
$spans = [];
foreach ($waiters as $i => $w) {
    [$exit, $out, $err] = $w->wait(300);
    preg_match('/got it at (\d+)/', $out, $a);
    preg_match('/released at (\d+)/', $out, $b);
    $spans[$i] = [(int)($a[1] ?? 0), (int)($b[1] ?? 0)];
    if ($exit !== 0) echo "waiter $i: $out $err\n";
}
$order = array_map(fn($s) => $s[0], $spans);
asort($order);
echo "order of acquisition: ", implode(' ', array_keys($order)), "\n";
$keys = array_keys($order);
$overlap = false;
for ($k = 1; $k < count($keys); $k++) {
    $overlap = $overlap || $spans[$keys[$k]][0] < $spans[$keys[$k - 1]][1];
}
echo "one holder at a time: ", $overlap ? 'no' : 'yes', "\n";
$r->del('rl204-go');
echo "keys left: ", count($r->keys('lock:rl204*')), "\n";
?>
--EXPECT--
queued: 4
queued while the first one holds: 3
order of acquisition: 0 1 2 3
one holder at a time: yes
keys left: 0
