<?php
/*
 * PHP-FPM requests per second over TLS (fpm_request.php, one lock + unlock
 * per request): redislock with its persistent connections (the default: one
 * handshake per worker) against 'persistent' => false (a handshake per
 * request), next to phpredis tls:// with pconnect and with connect, redislock
 * over plaintext (the cost of TLS itself) and an FPM floor that takes no lock.
 *   php -d extension=modules/redislock.so fpm_tls.php FPM_SOCKET
 * Makes its own certificates and a redis-server with a TLS port
 * (tests/tls.inc); the php-fpm pool must load the extension. Connects per
 * request: the server's total_connections_received before and after a
 * measured run, over the requests served. Env: BENCH_FPM_SECONDS (2) per
 * run, BENCH_FPM_ROUNDS (3), BENCH_FPM_CONCURRENCY (8) requests in flight;
 * the table shows the median.
 */
require __DIR__ . '/fcgi_load.php';
require __DIR__ . '/../tests/tls.inc';

$socket = $argv[1];
$seconds = (float)(getenv('BENCH_FPM_SECONDS') ?: 2);
$rounds = max(1, (int)(getenv('BENCH_FPM_ROUNDS') ?: 3));
$concurrency = max(1, (int)(getenv('BENCH_FPM_CONCURRENCY') ?: 8));

$pki = new RlTestPki();
$s = rl_tls_server($pki);
$ca = $pki->path('ca.crt');
$tlsServer = "127.0.0.1:{$s->tlsPort}";

// mode => [name, ?server=, ?cafile=]
$modes = [
    'none' => ['FPM floor (no lock)', $s->addr(), ''],
    'ext-tls' => ['redislock TLS, persistent (default)', $tlsServer, $ca],
    'ext-tls-own' => ["redislock TLS, 'persistent' => false", $tlsServer, $ca],
];
if (extension_loaded('redis')) {
    $modes['pconnect-tls'] = ['phpredis tls:// pconnect', $tlsServer, $ca];
    $modes['connect-tls'] = ['phpredis tls:// connect', $tlsServer, $ca];
}
$modes['ext'] = ['redislock plaintext, persistent', $s->addr(), ''];

$info = $s->client();
$received = function () use ($info): int {
    preg_match('/^total_connections_received:(\d+)/m', (string)$info->cmd('INFO', 'stats'), $m);
    return (int)$m[1];
};

$params = function (string $impl, string $server, string $cafile): array {
    $query = http_build_query(['impl' => $impl, 'server' => $server, 'cafile' => $cafile]);
    return [
        'GATEWAY_INTERFACE' => 'CGI/1.1', 'SERVER_PROTOCOL' => 'HTTP/1.1', 'REQUEST_METHOD' => 'GET',
        'SCRIPT_FILENAME' => __DIR__ . '/fpm_request.php', 'SCRIPT_NAME' => '/fpm_request.php',
        'QUERY_STRING' => $query, 'REQUEST_URI' => "/fpm_request.php?$query",
        'SERVER_NAME' => 'localhost', 'SERVER_PORT' => '80', 'REMOTE_ADDR' => '127.0.0.1', 'CONTENT_LENGTH' => '0',
    ];
};

$runs = [];
for ($r = 0; $r < $rounds; $r++) {
    foreach ($modes as $mode => [, $server, $cafile]) { // interleaved, so that noise hits all modes alike
        $runs[$mode][] = fcgi_measure($socket, $params($mode, $server, $cafile), $concurrency, $seconds, $received);
    }
}
$med = fn(string $mode, string $k): float => fcgi_median($runs[$mode], $k);

echo "## PHP-FPM over TLS, one lock + unlock per request, loopback, $concurrency in flight, $rounds x {$seconds} s, median\n";
printf("%-38s %9s %11s %10s %8s %7s\n", 'request', 'req/s', 'x TLS pers.', 'conn/req', 'p50 ms', 'failed');
foreach ($modes as $mode => [$name]) {
    $rps = $med($mode, 'rps');
    printf("%-38s %9.0f %11.2f %10.3f %8.2f %7d\n", $name, $rps, $rps / $med('ext-tls', 'rps'),
        $med($mode, 'connects'), $med($mode, 'p50'), array_sum(array_column($runs[$mode], 'failed')));
}
if (!extension_loaded('redis')) {
    echo "(phpredis not loaded: its rows skipped)\n";
}
echo "(x TLS pers.: against redislock over TLS with its persistent connection; conn/req: new connections to the server per request)\n";
// Printed for reading, never asserted.
$c = $med('ext-tls', 'connects');
printf("target: %-48s %6.3f (want < 0.01) %s\n", 'persistent TLS: connects per request', $c, $c < 0.01 ? 'met' : 'NOT met');
