<?php
/*
 * PHP-FPM requests per second for a request that takes and releases a lock
 * (fpm_request.php): the extension with its persistent connections (the
 * default) and with a connection per request ('persistent' => false), next
 * to userland phpredis with pconnect and with connect, and an FPM floor that
 * takes no lock.
 *   php fpm.php FPM_SOCKET INFO_HOST:PORT DAT_FILE LABEL=HOST:PORT...
 * Each LABEL=HOST:PORT is a way to the node INFO_HOST:PORT (direct, or a
 * delay proxy in front of it). Connects per request: the node's
 * total_connections_received before and after a measured run, over the
 * requests served. Env: BENCH_FPM_SECONDS (2) per run, BENCH_FPM_ROUNDS (3),
 * BENCH_FPM_CONCURRENCY (8) requests in flight; the table shows the median.
 */
require __DIR__ . '/fcgi_load.php';

[, $socket, $info, $dat] = $argv;
$targets = [];
foreach (array_slice($argv, 4) as $arg) {
    [$label, $addr] = explode('=', $arg, 2);
    $targets[$label] = $addr;
}
$seconds = (float)(getenv('BENCH_FPM_SECONDS') ?: 2);
$rounds = max(1, (int)(getenv('BENCH_FPM_ROUNDS') ?: 3));
$concurrency = max(1, (int)(getenv('BENCH_FPM_CONCURRENCY') ?: 8));
$modes = [
    'none' => 'FPM floor (no lock)',
    'ext' => 'redislock, persistent (default)',
    'ext-own' => "redislock, 'persistent' => false",
    'pconnect' => 'userland phpredis pconnect',
    'connect' => 'userland phpredis connect',
];
$perRequest = ['ext' => 'ext-own', 'ext-own' => 'ext-own', 'pconnect' => 'connect', 'connect' => 'connect'];

[$ih, $ip] = explode(':', $info);
$redis = new Redis();
$redis->connect($ih, (int)$ip, 1.0);
$received = fn() => (int)$redis->info('stats')['total_connections_received'];

$params = fn(string $impl, string $server) => [
    'GATEWAY_INTERFACE' => 'CGI/1.1', 'SERVER_PROTOCOL' => 'HTTP/1.1', 'REQUEST_METHOD' => 'GET',
    'SCRIPT_FILENAME' => __DIR__ . '/fpm_request.php', 'SCRIPT_NAME' => '/fpm_request.php',
    'QUERY_STRING' => "impl=$impl&server=$server", 'REQUEST_URI' => "/fpm_request.php?impl=$impl&server=$server",
    'SERVER_NAME' => 'localhost', 'SERVER_PORT' => '80', 'REMOTE_ADDR' => '127.0.0.1', 'CONTENT_LENGTH' => '0',
];

$rows = ['# target mode rps connects_per_request p50_ms'];
foreach ($targets as $label => $server) {
    $runs = [];
    for ($r = 0; $r < $rounds; $r++) {
        foreach ($modes as $mode => $name) { // interleaved, so that noise hits all modes alike
            $runs[$mode][] = fcgi_measure($socket, $params($mode, $server), $concurrency, $seconds, $received);
        }
    }
    $med = fn(string $mode, string $k): float => fcgi_median($runs[$mode], $k);
    echo "## PHP-FPM, one lock + unlock per request, node $label ($server), $concurrency in flight, $rounds x {$seconds} s, median\n";
    printf("%-34s %9s %11s %14s %10s %8s %7s\n", 'request', 'req/s', 'x RedisLock', 'x per-req conn', 'conn/req', 'p50 ms', 'failed');
    foreach ($modes as $mode => $name) {
        $rps = $med($mode, 'rps');
        printf("%-34s %9.0f %11.2f %14s %10.3f %8.2f %7d\n", $name, $rps, $rps / $med('ext', 'rps'),
            isset($perRequest[$mode]) ? sprintf('%.2f', $rps / $med($perRequest[$mode], 'rps')) : '-',
            $med($mode, 'connects'), $med($mode, 'p50'), array_sum(array_column($runs[$mode], 'failed')));
        $rows[] = sprintf('"%s" %s %.1f %.4f %.3f', $label, $mode, $rps, $med($mode, 'connects'), $med($mode, 'p50'));
    }
    echo "(x per-req conn: against the same library with a connection per request)\n";
    // The project's targets, printed for reading, never asserted.
    $c = $med('ext', 'connects');
    printf("target: %-48s %6.3f (want < 0.01) %s\n", 'persistent: connects per request', $c, $c < 0.01 ? 'met' : 'NOT met');
    $x = $med('ext', 'rps') / $med('ext-own', 'rps');
    printf("target: %-48s %6.2f (want >= 1.50) %s\n", "persistent / 'persistent' => false req/s", $x, $x >= 1.5 ? 'met' : 'NOT met');
}
file_put_contents($dat, implode("\n", $rows) . "\n");
