--TEST--
Eviction: a node with maxmemory and maxmemory-policy allkeys-lru can evict a held lock's key; asked at connect (CONFIG GET maxmemory*, no round trip of its own), it is reported once per process through the logger (event eviction_policy, warning, the node's address and the policy, never the password), for two objects and several locks; stats() and the metrics count it once
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer(['--maxmemory', '20mb', '--maxmemory-policy', 'allkeys-lru', '--requirepass', 'pw-261-secret']);
$events = [];
$logger = function (string $level, string $message, array $context) use (&$events) {
    if (($context['event'] ?? '') === 'eviction_policy') {
        $events[] = [$level, $message, $context];
    }
};
echo "before: ", RedisLock::stats()['eviction_risk_nodes'], "\n";
$a = new RedisLock($srv->addr(), ['password' => 'pw-261-secret', 'logger' => $logger]);
$b = new RedisLock($srv->addr(), ['password' => 'pw-261-secret', 'logger' => $logger, 'persistent' => false]);
foreach (['r1', 'r2', 'r3'] as $r) {
    $t = $a->lock("s261-$r", 10000);
    echo "a $r: ", $t !== null && $a->unlock("s261-$r", $t) ? 'locked and released' : 'FAILED', "\n";
    $t = $b->lock("s261-$r", 10000);
    echo "b $r: ", $t !== null && $b->unlock("s261-$r", $t) ? 'locked and released' : 'FAILED', "\n";
}
echo "events: ", count($events), "\n";
foreach ($events as [$level, $message, $ctx]) {
    echo "  $level | ", str_replace($srv->addr(), 'SRV', $message), " | node ", $ctx['node'] === $srv->addr() ? 'SRV' : $ctx['node'],
         " | policy ", $ctx['policy'], "\n";
}
echo "password in events: ", str_contains(serialize($events), 'pw-261-secret') ? 'YES' : 'no', "\n";
$stats = RedisLock::stats();
echo "stats eviction_risk_nodes: ", $stats['eviction_risk_nodes'], "\n";
$metrics = RedisLock::metrics();
echo "metrics: ", str_contains($metrics, "\nredislock_eviction_risk_nodes_total 1\n") ? 'counted once' : 'NOT COUNTED', "\n";
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
echo "phpinfo: ", preg_match('/Redis nodes that can evict lock keys[^\n]*=> 1\n/', $info) ? 'row of 1' : 'NO ROW', "\n";
?>
--EXPECT--
before: 0
a r1: locked and released
b r1: locked and released
a r2: locked and released
b r2: locked and released
a r3: locked and released
b r3: locked and released
events: 1
  warning | redislock: eviction_policy SRV | node SRV | policy allkeys-lru
password in events: no
stats eviction_risk_nodes: 1
metrics: counted once
phpinfo: row of 1
