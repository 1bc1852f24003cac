--TEST--
php-fpm over TLS: once each of the 4 workers has served, 100 requests doing new RedisLock() + lock + unlock on tls:// open no connection (no TLS handshake per request)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); rl_skip_unless_tls(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';
require __DIR__ . '/../tls.inc';

$pki = new RlTestPki();
$server = rl_tls_server($pki);
$r = $server->client();
$fpm = new RlTestFpm();   // pm = static, 4 workers

$fpm->writeScript('lock.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    usleep((int)($_GET['sleep'] ?? 0));
    $lock = new RedisLock($_GET['addr'], ['tls' => ['cafile' => $_GET['ca']]]);
    $resource = 'r097-' . getmypid();
    $token = $lock->lock($resource, 10000);
    echo is_string($token) && $lock->unlock($resource, $token) ? "ok" : "FAILED", "\n";
    PHP);
$q = ['addr' => $server->tlsAddr(), 'ca' => $pki->path('ca.crt')];

$byPid = $fpm->everyWorker('lock.php', $q + ['sleep' => 200000]);
$workers = array_keys($byPid);
echo "workers that served: ", count($workers), "\n";
$warm = array_merge(...array_values($byPid));
echo "warm-up responses all ok: ", count(array_filter($warm, fn($x) => $x['body'] === RlTestFpm::pidOf($x) . "\nok\n")) === count($warm) ? 'yes' : 'NO', "\n";

$me = $r->cmd('CLIENT', 'ID');
$ids = fn() => array_values(array_diff(array_column($r->clientList(), 'id'), [$me]));
$before = $ids();
sort($before);
$received = (int)$r->info('stats')['total_connections_received'];
echo "redis clients of the pool: ", count($before), "\n";

$n = rl_under_valgrind() ? 20 : 100;
$responses = $fpm->requestAll(array_fill(0, $n, ['lock.php', $q]), 8);
$ok = 0;
foreach ($responses as $res) {
    $pid = RlTestFpm::pidOf($res);
    if ($res['body'] === "$pid\nok\n" && $res['stderr'] === '') {
        $ok++;
    } else {
        var_dump($res);
    }
}
echo "requests ok: ", $ok === $n ? 'all' : $ok, "\n";
var_dump($fpm->workers() === $workers);
echo "connections opened during the requests: ",
    (int)$r->info('stats')['total_connections_received'] - $received, "\n";
$after = $ids();
sort($after);
echo "the same clients as before: ", $after === $before ? 'yes' : 'NO', "\n";
var_dump($r->keys('lock:*'));
?>
--EXPECT--
workers that served: 4
warm-up responses all ok: yes
redis clients of the pool: 4
requests ok: all
bool(true)
connections opened during the requests: 0
the same clients as before: yes
array(0) {
}
