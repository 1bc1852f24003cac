--TEST--
Woken, not rechecked, on one node: lock(), lockShared(), acquirePermit(), lockMany(), once() and watch() waiters are woken by the release (RedisLock::stats() counts what ended each wait)
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

$srv = new RlTestServer();
$make = 'new RedisLock(' . var_export($srv->addr(), true) . ', $o)';
foreach (['lock', 'lockShared', 'acquirePermit', 'lockMany', 'once', 'watch'] as $i => $kind) {
    rl_woken_round($make, $kind, "w210-$i", [$srv->client()]);
}
$r = $srv->client();
echo "keys left without a TTL: ", count(array_filter($r->keys('lock:w210*'), fn($k) => $r->pttl($k) === -1)), "\n";
?>
--EXPECT--
lock: woken
lockShared: woken
acquirePermit: woken
lockMany: woken
once: woken
watch: woken
keys left without a TTL: 0
