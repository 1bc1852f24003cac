--TEST--
php-fpm: once each of the 4 workers has served, 300 requests doing new RedisLock() + lock + unlock open no Redis connection
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

$server = new RlTestServer();
$r = $server->client();
$fpm = new RlTestFpm();   // pm = static, 4 workers

// What a web app does on every request: a new object, lock, unlock.
$fpm->writeScript('lock.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    usleep((int)($_GET['sleep'] ?? 0));   // lets concurrent requests overlap
    $lock = new RedisLock($_GET['addr']);
    $resource = 'r300-' . getmypid();
    $token = $lock->lock($resource, 10000);
    echo is_string($token) && $lock->unlock($resource, $token) ? "ok" : "FAILED", "\n";
    PHP);
$q = ['addr' => $server->addr()];

// Rounds of 4 concurrent requests until every worker has served one.
$byPid = $fpm->everyWorker('lock.php', $q + ['sleep' => 200000]);
$workers = array_keys($byPid);
echo "workers that served: ", count($workers), "\n";
var_dump($workers === $fpm->workers());
$warm = array_merge(...array_values($byPid));
echo "warm-up responses all ok: ", count(array_filter($warm, fn($x) => $x['body'] === RlTestFpm::pidOf($x) . "\nok\n")) === count($warm) ? 'yes' : 'NO', "\n";

$me = $r->cmd('CLIENT', 'ID');
$ids = fn() => array_values(array_diff(array_column($r->clientList(), 'id'), [$me]));
$before = $ids();
sort($before);
$received = (int)$r->info('stats')['total_connections_received'];
echo "redis clients of the pool: ", count($before), "\n";

$responses = $fpm->requestAll(array_fill(0, 300, ['lock.php', $q]), 8);
$ok = 0;
$pids = [];
foreach ($responses as $res) {
    $pid = RlTestFpm::pidOf($res);
    $pids[$pid] = true;
    if ($res['body'] === "$pid\nok\n" && $res['stderr'] === '') {
        $ok++;
    } else {
        var_dump($res);
    }
}
echo "requests ok: $ok of ", count($responses), "\n";
echo "served only by the pool's 4 workers: ", array_diff(array_keys($pids), $workers) === [] ? 'yes' : 'NO', "\n";
var_dump($fpm->workers() === $workers);   // no worker died or was replaced

echo "connections opened during the 300 requests: ",
    (int)$r->info('stats')['total_connections_received'] - $received, "\n";
$after = $ids();
sort($after);
echo "redis clients of the pool: ", count($after), "\n";
echo "the same clients as before: ", $after === $before ? 'yes' : 'NO', "\n";
var_dump($r->keys('lock:*'));
?>
--EXPECT--
workers that served: 4
bool(true)
warm-up responses all ok: yes
redis clients of the pool: 4
requests ok: 300 of 300
served only by the pool's 4 workers: yes
bool(true)
connections opened during the 300 requests: 0
redis clients of the pool: 4
the same clients as before: yes
array(0) {
}
