--TEST--
Semaphores under contention: 12 processes x 20 permits of a limit of 3, with waiting: never more than 3 inside (a checker script in Redis), every process finishes, the permits run 3 at a time
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('p621-inside', 'p621-max', 'p621-bad', 'p621-done', 'p621-ready');
// under valgrind every child runs in its own valgrind: fewer of them (still more than the limit)
[$procs, $n] = rl_under_valgrind() ? [5, 3] : [12, 20];
$code = <<<'PHP'
[, $server, $n, $hold, $procs] = $argv;
$ENTER = "local n = redis.call('incr', 'p621-inside') "
    . "if n > 3 then redis.call('incr', 'p621-bad') end "
    . "if n > tonumber(redis.call('get', 'p621-max') or '0') then redis.call('set', 'p621-max', n) end return n";
$r = new RlTestRedis($server);
$sem = new RedisLock($server);
// all start together: children that start one by one (each in its own
// valgrind, on a busy machine) could each be done before the next came
$r->cmd('INCR', 'p621-ready');
while ((int)$r->cmd('GET', 'p621-ready') < (int)$procs) {
    usleep(10000);
}
for ($i = 0; $i < (int)$n; $i++) {
    $t = $sem->acquirePermit('p621', 3, 5000, 60.0);
    if ($t === null) { echo "not acquired\n"; exit(1); }
    $r->cmd('EVAL', $ENTER, 0);
    usleep((int)$hold);
    $r->cmd('DECR', 'p621-inside');
    if (!$sem->unlock('p621', $t)) { echo "unlock failed\n"; exit(1); }
    $r->cmd('INCR', 'p621-done');
}
echo "done\n";
PHP;
$children = [];
for ($p = 0; $p < $procs; $p++) {
    $children[] = rl_php_child_start('$argv = ' . var_export(['-', rl_test_server(0), (string)$n, rl_under_valgrind() ? '100000' : '2000', (string)$procs], true) . ';' . $code);
}
$ok = 0;
foreach ($children as $c) {
    [$exit, $out, $err] = $c->wait(300);
    $ok += ($exit === 0 && trim($out) === 'done');
    if ($exit !== 0) echo "child failed: $out $err\n";
}
echo "children ok: ", $ok === $procs ? 'all' : $ok, "\n";
echo "permits used: ", $r->get('p621-done') === (string)($procs * $n) ? 'all' : $r->get('p621-done'), "\n";
echo "more than 3 inside: ", (int)$r->get('p621-bad'), " times\n";
echo "3 at a time: ", var_export($r->get('p621-max') === '3', true), "\n";
echo "nothing left: ", $r->exists('lock:p621', rl_derived_key('lock:p621', 'q')), "\n";
$r->del('p621-inside', 'p621-max', 'p621-bad', 'p621-done', 'p621-ready');
?>
--EXPECT--
children ok: all
permits used: all
more than 3 inside: 0 times
3 at a time: true
nothing left: 0
