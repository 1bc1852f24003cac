--TEST--
Eviction: a user whose ACL forbids CONFIG (the probe refused, NOPERM) on a node that could evict: not known, so nothing reported or counted; locks work, no exception, every reply read in step
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer(['--maxmemory', '20mb', '--maxmemory-policy', 'allkeys-lru', '--user', 'u265', 'on', '>pw265', '~*', '&*', '+@all', '-config']);
$events = [];
$logger = function (string $level, string $message, array $context) use (&$events, $srv) {
    if (($context['event'] ?? '') === 'eviction_policy') {
        $events[] = "$level " . ($context['node'] === $srv->addr() ? 'SRV' : $context['node']) . " " . $context['policy'];
    }
};
$a = new RedisLock($srv->addr(), ['logger' => $logger, 'username' => 'u265', 'password' => 'pw265']);
$b = new RedisLock($srv->addr(), ['logger' => $logger, 'persistent' => false, 'username' => 'u265', 'password' => 'pw265']);
foreach ([$a, $b] as $i => $o) {
    foreach (['r1', 'r2'] as $r) {
        try {
            $t = $o->lock("e-$r", 10000);
            echo "lock $i $r: ", $t !== null && $o->unlock("e-$r", $t) ? 'locked and released' : 'FAILED', "\n";
        } catch (Throwable $e) {
            echo "lock $i $r: ", get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
}
echo "events: ", count($events), "\n";
foreach ($events as $e) {
    echo "  $e\n";
}
echo "stats eviction_risk_nodes: ", RedisLock::stats()['eviction_risk_nodes'], "\n";
?>
--EXPECT--
lock 0 r1: locked and released
lock 0 r2: locked and released
lock 1 r1: locked and released
lock 1 r2: locked and released
events: 0
stats eviction_risk_nodes: 0
