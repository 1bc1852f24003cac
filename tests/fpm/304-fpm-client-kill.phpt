--TEST--
php-fpm: CLIENT KILL of all the pool's connections between requests is invisible: the next requests on all 4 workers succeed, and RedisLock::stats() counts one reconnect per worker
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

$server = new RlTestServer();
$r = $server->client();
$fpm = new RlTestFpm();   // 4 workers

$fpm->writeScript('lock.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    usleep((int)$_GET['sleep']);   // the 4 requests of a round overlap: one per worker
    try {
        $lock = new RedisLock($_GET['addr']);
        $resource = 'r304-' . getmypid();
        $token = $lock->lock($resource, 10000);
        echo is_string($token) && $lock->unlock($resource, $token) ? "ok" : "FAILED", "\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    echo json_encode(RedisLock::stats()), "\n";
    PHP);
$q = ['addr' => $server->addr(), 'sleep' => 200000];

$ok = fn(array $res) => $res['stderr'] === '' && explode("\n", $res['body'])[1] === 'ok';
$stats = fn(array $res) => json_decode(explode("\n", $res['body'])[2], true);

$byPid = $fpm->everyWorker('lock.php', $q);
$workers = array_keys($byPid);
echo "workers: ", count($workers), "\n";
echo "redis clients of the pool: ", $r->clientCount(), "\n";

echo "-- CLIENT KILL TYPE normal SKIPME yes\n";
echo "killed: ", $r->clientKillAllExceptMe(), "\n";
var_dump(rl_wait_until(fn() => $r->clientCount() === 0, 10.0));
$received = (int)$r->info('stats')['total_connections_received'];

// 3 rounds of 4 concurrent requests: each worker serves 3.
$served = [];
$last = [];
$bad = 0;
for ($round = 0; $round < 3; $round++) {
    foreach ($fpm->requestAll(array_fill(0, 4, ['lock.php', $q]), 4) as $res) {
        $pid = RlTestFpm::pidOf($res);
        $served[$pid] = ($served[$pid] ?? 0) + 1;
        $last[$pid] = $stats($res);
        if (!$ok($res)) {
            $bad++;
            var_dump($res);
        }
    }
}
ksort($served);
ksort($last);
echo "requests: ", array_sum($served), ", failed: $bad\n";
echo "every worker served: ", array_keys($served) === $workers ? 'yes' : 'NO', "\n";
foreach ($last as $pid => $s) {
    [$conn] = $s['connections'];
    $requests = count($byPid[$pid]) + $served[$pid];
    $lines[] = sprintf("worker: %s, failed %d; %s %s: %s, %d connects, %d reconnects",
        $s['acquired'] === $requests ? 'one lock acquired per request' : "acquired {$s['acquired']} in $requests requests",
        $s['failed'],
        $conn['endpoint'] === $server->addr() ? 'ENDPOINT' : $conn['endpoint'], $conn['role'],
        $conn['open'] ? 'open' : 'closed', $conn['connects'], $conn['reconnects']);
}
echo implode("\n", array_unique($lines)), "\n";
echo "new connections: ", (int)$r->info('stats')['total_connections_received'] - $received, "\n";
echo "redis clients of the pool: ", $r->clientCount(), "\n";
var_dump($r->keys('lock:*'));
?>
--EXPECT--
workers: 4
redis clients of the pool: 4
-- CLIENT KILL TYPE normal SKIPME yes
killed: 4
bool(true)
requests: 12, failed: 0
every worker served: yes
worker: one lock acquired per request, failed 0; ENDPOINT command: open, 2 connects, 1 reconnects
new connections: 4
redis clients of the pool: 4
array(0) {
}
