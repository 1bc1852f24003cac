--TEST--
php-fpm: after redis-server restarts, every following request on every worker succeeds (each worker reconnects once)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

$server = new RlTestServer();
$fpm = new RlTestFpm();   // 4 workers

$fpm->writeScript('lock.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    usleep((int)$_GET['sleep']);   // the 4 requests of a round overlap: one per worker
    try {
        $lock = new RedisLock($_GET['addr']);
        $resource = 'r301-' . getmypid();
        $token = $lock->lock($resource, 10000);
        echo is_string($token) ? "locked" : "NOT LOCKED", "\n";
        echo $lock->unlock($resource, $token) ? "unlocked" : "NOT UNLOCKED", "\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    PHP);
$q = ['addr' => $server->addr(), 'sleep' => 200000];

$workers = array_keys($fpm->everyWorker('lock.php', $q));
echo "workers with a pooled connection: ", count($workers), "\n";

echo "-- redis-server restarts\n";
$server->restart();
$r = $server->client();
$received = (int)$r->info('stats')['total_connections_received'];

// 5 rounds of 4 concurrent requests: 20 requests, every worker is hit.
$bad = 0;
$served = [];
for ($round = 0; $round < 5; $round++) {
    foreach ($fpm->requestAll(array_fill(0, 4, ['lock.php', $q]), 4) as $res) {
        $pid = RlTestFpm::pidOf($res);
        $served[$pid] = ($served[$pid] ?? 0) + 1;
        if ($res['body'] !== "$pid\nlocked\nunlocked\n" || $res['stderr'] !== '') {
            $bad++;
            var_dump($res);
        }
    }
}
ksort($served);
echo "requests: ", array_sum($served), ", failed: $bad\n";
echo "every worker served after the restart: ", array_keys($served) === $workers ? 'yes' : 'NO', "\n";
echo "connections the new server received from the pool: ",
    (int)$r->info('stats')['total_connections_received'] - $received, "\n";
echo "redis clients of the pool: ", $r->clientCount(), "\n";
var_dump($r->keys('lock:*'));
?>
--EXPECT--
workers with a pooled connection: 4
-- redis-server restarts
requests: 20, failed: 0
every worker served after the restart: yes
connections the new server received from the pool: 4
redis clients of the pool: 4
array(0) {
}
