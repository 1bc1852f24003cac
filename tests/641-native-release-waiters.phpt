--TEST--
Native compare-and-delete with waiters (a server with DELIFEQ or DELEX IFEQ): a holder that took the lock at its first look releases natively, finds the queue (EXISTS) and wakes its first waiter with a second command: three queued waiters get the lock in arrival order, each woken by the release before it (not by its 2 s look); 6 processes x 12 cycles with waiting: never two inside, no waiter left to its 2 s look, both release paths used
--SKIPIF--
<?php
require __DIR__ . '/skipif.inc';
if (rl_native_delete(new RlTestRedis(rl_test_server(0))) === null) {
    die('skip the server has neither DELIFEQ (Valkey 9.0+) nor DELEX (Redis 8.4+, Valkey 9.2+), by COMMAND INFO');
}
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$native = rl_native_delete($r);
$calls = function (string $cmd) use ($r): int {
    $v = $r->info('commandstats')["cmdstat_$cmd"] ?? '';
    return preg_match('/calls=(\d+)/', $v, $m) ? (int)$m[1] : 0;
};
$queue = rl_derived_key('lock:n641', 'q');
$slow = rl_under_valgrind();

echo "-- three waiters behind a holder that took the lock at its first look\n";
$holder = new RedisLock(rl_test_server(0));
$t = $holder->lock('n641', 30000);
$waiters = [];
for ($i = 1; $i <= 3; $i++) {
    $waiters[$i] = rl_php_child_start(<<<'PHP'
$l = new RedisLock(rl_test_server(0));
$t = $l->lock('n641', 10000, 20.0);
echo "got ", is_string($t) ? 'yes' : 'no', " at ", hrtime(true), "\n";
usleep(100000);
echo "released: ", var_export($l->unlock('n641', $t), true), "\n";
PHP);
    // queued in this order
    rl_wait_until(fn() => $r->cmd('LLEN', $queue) === $i, 30);
}
echo "queued: ", $r->cmd('LLEN', $queue), "\n";
$r->cmd('CONFIG', 'RESETSTAT');
$releasedAt = hrtime(true);
var_dump($holder->unlock('n641', $t));
$got = [];
foreach ($waiters as $i => $w) {
    [, $out] = $w->wait(60);
    preg_match('/got (\w+) at (\d+)/', $out, $m);
    $got[$i] = (int)($m[2] ?? 0);
    echo "waiter $i: got ", $m[1] ?? '?', ", ", trim(substr($out, strpos($out, 'released'))), "\n";
}
echo "in arrival order: ", var_export($got[1] < $got[2] && $got[2] < $got[3], true), "\n";
// woken by each release: the first within a round trip or so of the holder's,
// each next one right after its predecessor's 100 ms; a waiter left to its
// 2 s look would take seconds
$gaps = [($got[1] - $releasedAt) / 1e6, ($got[2] - $got[1]) / 1e6 - 100, ($got[3] - $got[2]) / 1e6 - 100];
$bound = $slow ? 1500 : 300;
echo "each woken by the release before it: ", max($gaps) < $bound ? 'yes' : 'no (' . implode(', ', array_map(fn($g) => round($g) . ' ms', $gaps)) . ')', "\n";
// the holder's release was the native one; the waiters' (had after waiting) went by the script
echo "native releases: ", $calls($native), "; by the script too: ", var_export($calls('evalsha') + $calls('eval') > 0, true), "\n";
echo "keys left: ", count($r->keys('lock:n641*')), "\n";

echo "-- 6 processes x 12 cycles, waiting\n";
$r->cmd('CONFIG', 'RESETSTAT');
$kids = [];
for ($i = 0; $i < 6; $i++) {
    $kids[] = rl_php_child_start(<<<'PHP'
$l = new RedisLock(rl_test_server(0));
$r = new RlTestRedis(rl_test_server(0));
$overlaps = 0;
$longest = 0.0;
for ($n = 0; $n < 12; $n++) {
    $s = hrtime(true);
    $t = $l->lock('n641-m', 5000, 20.0);
    $longest = max($longest, (hrtime(true) - $s) / 1e6);
    if ($r->set('n641-inside', 'x', 'NX') === null) {
        $overlaps++;
    }
    usleep(random_int(500, 3000));
    $r->del('n641-inside');
    $l->unlock('n641-m', $t);
    usleep(random_int(0, 5000)); // now and then nobody waits: a lock had at its first look
}
echo "overlaps $overlaps longest ", (int)$longest, "\n";
PHP);
}
$overlaps = 0;
$longest = 0;
foreach ($kids as $k) {
    [, $out] = $k->wait(120);
    if (!preg_match('/overlaps (\d+) longest (\d+)/', $out, $m)) {
        echo "a child said: $out\n";
        continue;
    }
    $overlaps += (int)$m[1];
    $longest = max($longest, (int)$m[2]);
}
echo "never two inside: ", var_export($overlaps === 0, true), "\n";
// 5 others' sections of at most 3 ms each before a waiter's turn; a waiter
// that missed its wake would wait for its 2 s look
echo "no waiter left to its 2 s look: ", $slow || $longest < 1500 ? 'yes' : "no (a wait of $longest ms)", "\n";
echo "both release paths: ", var_export($calls($native) > 0 && $calls('evalsha') > 0, true), "\n";
echo "keys left: ", count($r->keys('lock:n641*')), "\n";
?>
--EXPECT--
-- three waiters behind a holder that took the lock at its first look
queued: 3
bool(true)
waiter 1: got yes, released: true
waiter 2: got yes, released: true
waiter 3: got yes, released: true
in arrival order: true
each woken by the release before it: yes
native releases: 1; by the script too: true
keys left: 0
-- 6 processes x 12 cycles, waiting
never two inside: true
no waiter left to its 2 s look: yes
both release paths: true
keys left: 0
