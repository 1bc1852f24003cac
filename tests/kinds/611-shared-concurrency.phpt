--TEST--
Shared locks under contention: 8 processes mixing lockShared() and lock() with waiting; a checker script in Redis sees shared holders together, an exclusive holder alone, never both; a queued writer gets the lock while new readers keep arriving
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('s611-readers', 's611-writers', 's611-bad', 's611-maxreaders', 's611-ops');
// under valgrind every child runs in its own valgrind: fewer of them, fewer rounds
// (and longer holds: with 3 slow processes, short sections might never overlap)
[$procs, $n, $hold] = rl_under_valgrind() ? [3, 15, '100000'] : [8, 300, '400'];
// The checker: entering and leaving are atomic in Redis, so a breach is seen
// whatever the processes' timing.
$code = <<<'PHP'
[, $server, $n, $seed, $hold] = $argv;
mt_srand((int)$seed);
$CHECK = "local r = tonumber(redis.call('get', 's611-readers') or '0') "
    . "local w = tonumber(redis.call('get', 's611-writers') or '0') "
    . "if ARGV[1] == 'w' then "
    . "  if r > 0 or w > 0 then redis.call('incr', 's611-bad') end "
    . "  redis.call('incr', 's611-writers') "
    . "else "
    . "  if w > 0 then redis.call('incr', 's611-bad') end "
    . "  r = redis.call('incr', 's611-readers') "
    . "  if r > tonumber(redis.call('get', 's611-maxreaders') or '0') then redis.call('set', 's611-maxreaders', r) end "
    . "end "
    . "redis.call('incr', 's611-ops') return 1";
$r = new RlTestRedis($server);
$lock = new RedisLock($server);
for ($i = 0; $i < (int)$n; $i++) {
    $writer = mt_rand(0, 3) === 0;
    $t = $writer ? $lock->lock('s611', 5000, 30.0) : $lock->lockShared('s611', 5000, 30.0);
    if ($t === null) { echo "not acquired\n"; exit(1); }
    $r->cmd('EVAL', $CHECK, 0, $writer ? 'w' : 'r');
    usleep(mt_rand(0, (int)$hold));
    $r->cmd('DECR', $writer ? 's611-writers' : 's611-readers');
    if (!$lock->unlock('s611', $t)) { echo "unlock failed\n"; exit(1); }
}
echo "done\n";
PHP;
$children = [];
for ($p = 0; $p < $procs; $p++) {
    $children[] = rl_php_child_start('$argv = ' . var_export(['-', rl_test_server(0), (string)$n, (string)(611 + $p), $hold], true) . ';' . $code);
}
$ok = 0;
foreach ($children as $c) {
    [$exit, $out, $err] = $c->wait(300);
    $ok += ($exit === 0 && trim($out) === 'done');
    if ($exit !== 0) echo "child failed: $out $err\n";
}
echo "children ok: ", $ok === $procs ? 'all' : $ok, "\n";
echo "operations checked: ", $r->get('s611-ops') === (string)($procs * $n) ? 'all' : $r->get('s611-ops'), "\n";
echo "breaches: ", (int)$r->get('s611-bad'), "\n";
echo "readers were together: ", var_export((int)$r->get('s611-maxreaders') > 1, true), "\n";

// A writer queues while readers hold, and readers keep arriving (each
// overlapping the next): the writer still gets the lock, before its wait
// ends, and readers arriving after it wait behind it. Told by states, not
// by timing: the test holds a shared lock of its own (the anchor) until the
// writer is in the queue and a reader that came after it queued behind it
// (with readers let in past a queued writer, none would queue: the wait
// for one fails); the readers go on until the test stops them, so they
// arrive all along the writer's wait however slowly anything runs.
$r->del('s611-reads', 's611-stop', 's611-writer', 's611-go');
$server = rl_test_server(0);
$patience = rl_under_valgrind() ? 100.0 : 30.0;   // each bounded wait for a state
$res = 's611b-' . bin2hex(random_bytes(4));   // a run's own: a failed one leaves its holders behind
$anchor = new RedisLock($server);
$ta = $anchor->lockShared($res, 600000);
$look = fn() => $anchor->inspect($res);
$readers = [];
$readerCode = <<<'PHP'
[, $server, $res] = $argv;
$r = new RlTestRedis($server);
$lock = new RedisLock($server);
$safety = microtime(true) + 600;   // in case the test never says stop
while ($r->get('s611-stop') === null && microtime(true) < $safety) {
    $t = $lock->lockShared($res, 60000, 300.0);
    if ($t === null) { echo "not acquired\n"; exit(1); }
    $r->cmd('INCR', 's611-reads');
    usleep(30000);             // holds 30 ms; three readers keep it held all along
    $lock->unlock($res, $t);
}
echo "done\n";
PHP;
for ($p = 0; $p < 3; $p++) {
    $readers[] = rl_php_child_start('$argv = ' . var_export(['-', $server, $res], true) . ';' . $readerCode);
}
$in = rl_wait_until(fn() => (int)$r->get('s611-reads') >= 6, $patience);
$writer = rl_php_child_start('
    $server = ' . var_export($server, true) . ';
    $l = new RedisLock($server);
    $r = new RlTestRedis($server);
    $t = $l->lock(' . var_export($res, true) . ', 600000, 300.0);
    $r->set("s611-writer", $t === null ? "timed out" : "in");
    if ($t !== null) {
        rl_wait_until(fn() => $r->get("s611-go") !== null, 300.0);
        $l->unlock(' . var_export($res, true) . ', $t);
    }
    echo "done\n";');
$queued = $in && rl_wait_until(fn() => $look()['waiters'] >= 1, $patience);      // the writer (readers queue behind a queued writer only)
$behind = $queued && rl_wait_until(fn() => $look()['waiters'] >= 2, $patience);  // and a reader that came after it
$anchor->unlock($res, $ta);
$got = rl_wait_until(fn() => $r->get('s611-writer') !== null, $patience) && $r->get('s611-writer') === 'in';
$readsBefore = (int)$r->get('s611-reads');
$arriving = count(array_filter($readers, fn($c) => $c->isRunning())) === 3;   // stopped only by the test
echo "writer queued, then a reader behind it: ", var_export($queued && $behind, true), "\n";
echo "writer got it while readers arrive: ", var_export($got && $arriving, true), "\n";
echo "no reader in with the writer: ", var_export($r->cmd('ZCARD', rl_derived_key("lock:$res", 's')) === 0, true), "\n";
// the readers that come while it holds queue (a state), and none got in
$waited = $got && rl_wait_until(fn() => $look()['waiters'] >= 1, $patience);
echo "readers waited while it held: ", var_export($waited && (int)$r->get('s611-reads') === $readsBefore, true), "\n";
$r->set('s611-go', '1');
[$exit, $out, $err] = $writer->wait($patience);
if ($exit !== 0 || trim($out) !== 'done') echo "writer failed: $out $err\n";
$after = rl_wait_until(fn() => (int)$r->get('s611-reads') > $readsBefore, $patience);
$r->set('s611-stop', '1');
foreach ($readers as $c) {
    [$exit, $out, $err] = $c->wait($patience);
    if ($exit !== 0 || trim($out) !== 'done') echo "reader failed: $out $err\n";
}
echo "readers went on after: ", var_export($after, true), "\n";
$r->del('s611-readers', 's611-writers', 's611-bad', 's611-maxreaders', 's611-ops', 's611-reads', 's611-stop', 's611-writer', 's611-go');
?>
--EXPECT--
children ok: all
operations checked: all
breaches: 0
readers were together: true
writer queued, then a reader behind it: true
writer got it while readers arrive: true
no reader in with the writer: true
readers waited while it held: true
readers went on after: true
