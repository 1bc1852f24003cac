--TEST--
Native release with a waiter queued: the delete and EXISTS find the queue, and the wake script follows in the same unlock(): the waiter is woken by the release (not by its recheck) and takes the lock; with nobody queued no wake script is sent; a lock taken after a wait is released by the script (others likely queued behind it: its wake in the same round trip)
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
$names = (new RlTestRedis(rl_test_server(0)))->cmd('COMMAND', 'LIST', 'FILTERBY', 'PATTERN', '[d]*e[xq]');
if (!array_intersect(array_map('strtolower', (array)$names), ['delex', 'delifeq'])) {
    die('skip the server has neither DELEX (Redis 8.4+) nor DELIFEQ (Valkey 9.0+): every release is the script there');
}
?>
--FILE--
<?php
require __DIR__ . '/../woken.inc';

// Private server: its command counts are this test's alone.
$srv = new RlTestServer();
$r = $srv->client();
$slow = rl_under_valgrind();
/** calls of $cmd in INFO commandstats (no regex: PCRE JIT is noise under valgrind) */
$calls = function (string $cmd) use ($r): int {
    foreach (explode("\r\n", $r->cmd('INFO', 'commandstats')) as $line) {
        if (str_starts_with($line, "cmdstat_$cmd:calls=")) return (int)substr($line, strlen("cmdstat_$cmd:calls="));
    }
    return 0;
};
$native = fn() => $calls('delex') + $calls('delifeq');

$holder = new RedisLock($srv->addr());
$t = $holder->lock('n641', 5000);
[$n0, $s0] = [$native(), $calls('evalsha') + $calls('eval')];
var_dump($holder->unlock('n641', $t));
echo "nobody queued: native ", $native() - $n0, ", scripts ", $calls('evalsha') + $calls('eval') - $s0, "\n";

for ($round = 1; ; $round++) {
    $token = $holder->lock('n641', $slow ? 600000 : 120000);
    $go = rl_mktemp_dir('rl641-') . '/go';
    $waiter = rl_php_child_start('$l = new RedisLock(' . var_export($srv->addr(), true) . ');
$t = $l->lock("n641", 5000, ' . ($slow ? 200.0 : 40.0) . ');
$s = RedisLock::stats();
echo "waiter: ", is_string($t) ? "locked" : "not locked", ", woken ", $s["waits_woken"] > 0 ? "yes" : "no", ", rechecked ", $s["waits_rechecked"], ", wake errors ", $s["wake_errors"], "\n";
rl_wait_until(fn() => file_exists(' . var_export($go, true) . '), ' . ($slow ? 100 : 20) . ');
var_dump($l->unlock("n641", $t));
');
    $seen = rl_wait_until(fn() => rl_woken_blocked($r) === 1, $slow ? 100 : 20);
    [$n0, $x0] = [$native(), $calls('xadd')];
    $released = $holder->unlock('n641', $token);
    [$n1, $x1] = [$native(), $calls('xadd')]; // the waiter's own scripts run meanwhile: the wake is told by its XADD

    touch($go);
    [$code, $out, $err] = $waiter->wait($slow ? 100 : 20);
    $n2 = $native();   // the waiter's own release happened meanwhile
    rl_rmtree(dirname($go));
    // the machine's one race (tests/woken.inc): the waiter's recheck came just as the holder let go
    if ($round < 3 && str_contains($out, 'woken no') && str_contains($out, 'wake errors 0')) {
        rl_test_note("641: round $round: the waiter looked again on its own just as the holder let go; again");
        continue;
    }
    break;
}
echo "waiter blocked: ", $seen ? 'yes' : 'no', "\n";
var_dump($released);
echo "queued: native ", $n1 - $n0, ", a wake written ", $x1 - $x0 > 0 ? 'yes' : 'no', "\n";
echo $out, $err, "waiter exit: $code\n";
// it had waited, so others were likely queued behind it: the script, whose
// wake rides in its one round trip (bench/native_handoff.php)
echo "the waiter's release, taken after a wait: native ", $n2 - $n1, "\n";
echo "keys left: ", count($r->keys('lock:n641*')), "\n";
?>
--EXPECTF--
bool(true)
nobody queued: native 1, scripts 0
waiter blocked: yes
bool(true)
queued: native 1, a wake written yes
waiter: locked, woken yes, rechecked %d, wake errors 0
bool(true)
waiter exit: 0
the waiter's release, taken after a wait: native 0
keys left: 0
