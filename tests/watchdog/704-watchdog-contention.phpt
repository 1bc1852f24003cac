--TEST--
auto_extend under contention: 8 processes x 4 acquisitions (4 resources) with waiting, each critical section longer than the lock's TTL: no two holders at once (a checker in Redis), no lost update
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
// Each section outlasts the TTL, so only the watchdog's extends keep the
// lock. No watchdog survives a stall longer than the TTL (its thread or the
// server unscheduled that long), so the TTL is set far above what a loaded
// machine stalls: a CI host at twice its cores' load starved a 400 ms TTL
// (two holders seen) and, before it, 150 ms. Valgrind runs one thread at a
// time: longer still, fewer rounds.
[$n, $ttl, $section] = rl_under_valgrind() ? [2, 4000, 4400] : [4, 2000, 2300];
for ($k = 0; $k < 4; $k++) $r->del("w704-count-$k", "w704-inside-$k");
$r->del('w704-bad');
$code = <<<'PHP'
[, $server, $n, $ttl, $section, $me] = $argv;
$ENTER = "if redis.call('incr', KEYS[1]) > 1 then redis.call('incr', 'w704-bad') end return 1";
$r = new RlTestRedis($server);
$l = new RedisLock($server, ['auto_extend' => true]);
for ($i = 0; $i < (int)$n; $i++) {
    $k = ((int)$me + $i) % 4;
    $t = $l->lock("w704-$k", (int)$ttl, 120.0);
    if ($t === null) { echo "not acquired\n"; exit(1); }
    $r->cmd('EVAL', $ENTER, 1, "w704-inside-$k");
    $v = (int)$r->get("w704-count-$k");
    usleep((int)$section * 1000);          // longer than the TTL: only the watchdog keeps the lock
    $r->set("w704-count-$k", (string)($v + 1));
    $r->cmd('DECR', "w704-inside-$k");
    if (!$l->unlock("w704-$k", $t)) { echo "unlock failed: the lock was lost\n"; exit(1); }
}
echo "done\n";
PHP;
$children = [];
for ($p = 0; $p < 8; $p++) {
    $children[] = rl_php_child_start('$argv = ' . var_export(['-', rl_test_server(0), (string)$n, (string)$ttl, (string)$section, (string)$p], true) . ';' . $code);
}
$ok = 0;
foreach ($children as $c) {
    [$exit, $out, $err] = $c->wait(600);
    $ok += ($exit === 0 && trim($out) === 'done');
    if ($exit !== 0) echo "child failed: $out $err\n";
}
$total = 0;
for ($k = 0; $k < 4; $k++) $total += (int)$r->get("w704-count-$k");
echo "children ok: $ok\n";
echo "updates: ", $total === 8 * $n ? 'none lost' : "$total of " . (8 * $n), "\n";
echo "two holders at once: ", (int)$r->get('w704-bad'), " times\n";
?>
--EXPECT--
children ok: 8
updates: none lost
two holders at once: 0 times
