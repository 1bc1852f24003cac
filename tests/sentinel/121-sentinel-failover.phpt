--TEST--
Sentinel: after SENTINEL FAILOVER the next operation asks the sentinels again and goes on against the new master, without a failed call (pooled and private connections, RedisLock and RedLock)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); require_once __DIR__ . '/../sentinel.inc'; rl_skip_unless_sentinel(); rl_skip_unless_servers(2); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';

$g = new RlTestSentinelGroup('mymaster');
$group = ['sentinels' => $g->sentinelAddrs(), 'service' => 'mymaster'];
$pooled = new RedisLock($group);
$private = new RedisLock($group, ['persistent' => false]);
$rl = new RedLock([$group, rl_test_server(0), rl_test_server(1)]);
foreach ([$pooled, $private, $rl] as $i => $l) {   // all three know the first master
    $l->unlock("warm$i", (string)$l->lock("warm$i", 1000));
}

[$old, $new] = $g->failover();
echo "new master differs: ", var_export($old !== $new, true), "\n";

$failed = 0;
foreach ([$pooled, $private, $rl] as $i => $l) {
    for ($n = 0; $n < 10; $n++) {
        try {
            $t = $l->lock("s121-$i", 10000);
            if (!is_string($t) || $g->client($new)->get("lock:s121-$i") !== $t || !$l->unlock("s121-$i", $t)) {
                $failed++;
            }
        } catch (Throwable $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
            $failed++;
        }
    }
}
echo "failed calls after the failover: $failed\n";
echo "old master is a replica: ", var_export($g->client($old)->cmd('ROLE')[0] === 'slave', true), "\n";
$st = RedisLock::stats();
echo "failed counter: {$st['failed']}\n";
?>
--EXPECT--
new master differs: true
failed calls after the failover: 0
old master is a replica: true
failed counter: 0
