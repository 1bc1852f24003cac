--TEST--
RedLock: waiters are woken by the release, not by their recheck: lock(), lockShared(), lockMany(), once() and watch() block on every node at once and the release's wake on any ends the wait
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--FILE--
<?php
require __DIR__ . '/../woken.inc';

$servers = [new RlTestServer(), new RlTestServer(), new RlTestServer()];
$make = 'new RedLock(' . var_export(array_map(fn($s) => $s->addr(), $servers), true) . ', 200, 3, $o)';
$clients = array_map(fn($s) => $s->client(), $servers);
foreach (['lock', 'lockShared', 'lockMany', 'once', 'watch'] as $i => $kind) {
    rl_woken_round($make, $kind, "w113-$i", $clients);
}
$left = 0;
foreach ($clients as $r) {
    $left += count(array_filter($r->keys('lock:w113*'), fn($k) => $r->pttl($k) === -1));
}
echo "keys left without a TTL: $left\n";
?>
--EXPECT--
lock: woken
lockShared: woken
lockMany: woken
once: woken
watch: woken
keys left without a TTL: 0
