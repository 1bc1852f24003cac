--TEST--
Sentinel: waiters are woken by the release, not by their recheck: lock(), lockShared(), acquirePermit(), lockMany(), once() and watch() on the group's master; a waiter blocked while the master fails over is woken on the new one (its failed read counted)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); require_once __DIR__ . '/../sentinel.inc'; rl_skip_unless_sentinel(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';
require __DIR__ . '/../woken.inc';

$g = new RlTestSentinelGroup('mymaster');
$make = 'new RedisLock(' . var_export(['sentinels' => $g->sentinelAddrs(), 'service' => 'mymaster'], true) . ', $o)';
foreach (['lock', 'lockShared', 'acquirePermit', 'lockMany', 'once', 'watch'] as $i => $kind) {
    rl_woken_round($make, $kind, "w133-$i", [$g->client($g->masterAddr())]);
}
echo "-- the master fails over while it waits\n";
$old = $g->masterAddr();
$new = null;
rl_woken_round($make, 'lock', 'w133-fo', [$g->client($old)], function () use ($g, &$new) {
    [, $new] = $g->failover();
});
echo "a new master: ", $new !== null && $new !== $old ? 'yes' : 'no', "\n";
?>
--EXPECT--
lock: woken
lockShared: woken
acquirePermit: woken
lockMany: woken
once: woken
watch: woken
-- the master fails over while it waits
lock: woken
a new master: yes
