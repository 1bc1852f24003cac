--TEST--
RedLock without $wait: retryCount tries in all, a random [retryDelay/2, retryDelay] ms apart; each try is one SET per node
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$nodes = [new RlTestServer(), new RlTestServer(), new RlTestServer()];
$addrs = array_map(fn($n) => $n->addr(), $nodes);
foreach ($nodes as $n) $n->client()->set('lock:r109', 'other', 'PX', 60000);
$sets = fn() => array_sum(array_map(function ($n) {
    preg_match('/calls=(\d+)/', $n->client()->info('commandstats')['cmdstat_set'] ?? '', $m);
    return (int)($m[1] ?? 0);
}, $nodes));

foreach ([[100, 3], [100, 1], [100, 0], [0, 5]] as [$delay, $count]) {
    $lock = new RedLock($addrs, $delay, $count);
    $before = $sets();
    $start = hrtime(true);
    $t = $lock->lock('r109', 1000);
    $ms = (hrtime(true) - $start) / 1e6;
    $tries = intdiv($sets() - $before, 3);
    $pauses = max(1, $count) - 1;
    // not sooner than the pauses (the product's promise); later only by a hang:
    // a loaded machine runs us late, and the tries are counted above
    $inRange = $ms >= $pauses * $delay / 2 && $ms < $pauses * $delay + 30000;
    printf("retryDelay %d, retryCount %d: %s, %d tries, paused as set: %s\n", $delay, $count,
           var_export($t, true), $tries, $inRange ? 'yes' : "no ($ms ms)");
}
?>
--EXPECT--
retryDelay 100, retryCount 3: NULL, 3 tries, paused as set: yes
retryDelay 100, retryCount 1: NULL, 1 tries, paused as set: yes
retryDelay 100, retryCount 0: NULL, 1 tries, paused as set: yes
retryDelay 0, retryCount 5: NULL, 5 tries, paused as set: yes
