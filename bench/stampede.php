<?php
/*
 * Cache stampede under a real php-fpm: K requests at once for one cold cache
 * key whose rebuild takes BENCH_STAMPEDE_REBUILD_MS (50) ms; each request is
 * stampede_request.php (read; on a miss lock, read again, rebuild if still
 * missing, release). A round: DEL the key, open K FastCGI connections, send
 * the K requests together, wait for every reply. Per lock variant and K, over
 * the measured rounds: requests/s (K * rounds / the rounds' wall time), p50 /
 * p99 / max latency, rebuilds per round (from the Redis counter, want 1),
 * requests that waited for the lock, and Redis commands per request (INFO
 * commandstats after a CONFIG RESETSTAT before each round: every command
 * Redis ran, those inside scripts included). Latencies count every request
 * that answered, failed ones (a lock wait that timed out) included. Then one
 * more round per variant under MONITOR, not timed, counts the commands the
 * clients sent (the round trips; MONITOR marks the scripts' own as "lua").
 *   php -d extension=EXT_SO stampede.php PHP_FPM EXT_SO HOST:PORT WORK_DIR DAT_FILE
 * For each K it starts its own php-fpm pool (fpm_pool.sh, EXT_SO loaded by
 * the pool, phpredis by the system's conf.d) under WORK_DIR/fpm-K, with K
 * workers, so every request has a worker and the latency is the lock's, not
 * FPM's queue. Variants are interleaved round by round (noise hits all
 * alike), after one unmeasured warm-up round each.
 * Env: BENCH_STAMPEDE_K ("8 32 128"), BENCH_STAMPEDE_ROUNDS (10 measured
 * rounds), BENCH_STAMPEDE_WORKERS (workers per pool; default K, fewer makes
 * requests queue in FPM), BENCH_STAMPEDE_VARIANTS (default all; see
 * stampede_request.php), BENCH_STAMPEDE_REBUILD_MS (50), BENCH_STAMPEDE_WAIT
 * (5: seconds a request waits for the lock).
 */
require __DIR__ . '/stampede_lib.php';

const STAMPEDE_VARIANTS = [
    'none' => 'no lock (the stampede)',
    'ext-once' => 'extension, once(): all woken at once',
    'ext-swr' => 'once(), stale while revalidate',
    'ext' => 'extension, RedisLock::lock()',
    'symfony-bridge' => 'Symfony bridge (RedisLockStore)',
    'laravel-bridge' => 'Laravel bridge (RedisLockStore)',
    'symfony-redisstore' => 'symfony/lock RedisStore, polls',
    'laravel-redis' => 'Laravel PhpRedisLock, polls',
];

[, $fpm, $ext, $server, $work, $dat] = $argv;
$env = fn(string $name, string $default) => (($v = getenv($name)) === false || $v === '') ? $default : $v;
$ks = array_map('intval', preg_split('/[\s,]+/', trim($env('BENCH_STAMPEDE_K', '8 32 128'))));
$rounds = max(1, (int)$env('BENCH_STAMPEDE_ROUNDS', '10'));
$workersEnv = $env('BENCH_STAMPEDE_WORKERS', '');
$variants = preg_split('/[\s,]+/', trim($env('BENCH_STAMPEDE_VARIANTS', implode(' ', array_keys(STAMPEDE_VARIANTS)))));
$rebuildMs = (int)$env('BENCH_STAMPEDE_REBUILD_MS', '50');
$wait = (float)$env('BENCH_STAMPEDE_WAIT', '5');

[$host, $port] = explode(':', $server);
$redis = new Redis();
$redis->connect($host, (int)$port, 1.0);

/** A library's version: from Composer when it installed it, else from dpkg. */
function library_version(string $composerName, string $debianName): string
{
    if (class_exists(\Composer\InstalledVersions::class, false) && \Composer\InstalledVersions::isInstalled($composerName)) {
        return (string)\Composer\InstalledVersions::getPrettyVersion($composerName);
    }
    return trim((string)@shell_exec('dpkg-query -W -f \'${Version}\' ' . escapeshellarg($debianName) . ' 2>/dev/null')) ?: '?';
}
printf("# illuminate/cache %s, illuminate/redis %s; rounds and workers: %d rounds per K, %s workers per pool\n",
    library_version('illuminate/cache', 'php-illuminate-cache'), library_version('illuminate/redis', 'php-illuminate-redis'),
    $rounds, $workersEnv === '' ? 'K' : (int)$workersEnv);

$key = 'stampede:cache';

/** A round starts with the item missing, or (stale while revalidate) due for a rebuild. */
function round_reset(Redis $redis, string $item, string $variant): void
{
    if ($variant === 'ext-swr') {
        $redis->set($item, 'stale');
    } else {
        $redis->del($item);
    }
}
$rows = [];
$dataBlocks = [];
foreach ($ks as $k) {
    $workers = $workersEnv === '' ? $k : max(1, (int)$workersEnv);
    $dir = "$work/fpm-$k";
    @mkdir($dir, 0777, true);
    $pool = pool_start($fpm, $dir, $ext, $workers);
    $socket = $pool[1];
    try {
        $query = fn(string $v) => ['variant' => $v, 'server' => $server, 'key' => "$key:$v", 'rebuild_ms' => $rebuildMs, 'wait' => $wait];
        $run = [];
        foreach ($variants as $v) {
            $probe = fire($socket, request_for($query($v) + ['probe' => 1]), 1, 10)['requests'][0][1];
            if ($probe === 'ok') {
                $run[] = $v;
            } elseif (!isset($skipped[$v])) {
                $skipped[$v] = "$v skipped: " . ($probe ?? 'no answer');
                fwrite(STDERR, "stampede: {$skipped[$v]}\n");
            }
        }
        $stats = [];
        for ($r = 0; $r <= $rounds; $r++) { // round 0: warm-up (every worker's connections and opcache)
            foreach ($run as $v) {
                round_reset($redis, "$key:$v", $v);
                usleep(30000); // the previous round's fire-and-forget commands land before the reset
                $rebuiltBefore = (int)$redis->get("$key:$v:rebuilds");
                $redis->rawCommand('CONFIG', 'RESETSTAT');
                $res = fire($socket, request_for($query($v)), $k, $wait + 30);
                usleep(20000);
                $calls = command_calls($redis);
                $rebuilds = (int)$redis->get("$key:$v:rebuilds") - $rebuiltBefore;
                if ($r === 0) {
                    continue;
                }
                $s = &$stats[$v];
                $s['wall'] = ($s['wall'] ?? 0) + $res['wall'];
                $s['rebuilds'][] = $rebuilds;
                foreach ($calls as $cmd => $n) {
                    $s['calls'][$cmd] = ($s['calls'][$cmd] ?? 0) + $n;
                }
                foreach ($res['requests'] as [$ms, $body]) {
                    if ($body !== null) {
                        $s['latency'][] = $ms;
                    }
                    if ($body !== null && preg_match('/^ok (\w+) ([\d.]+)$/', $body, $m)) {
                        $s['outcome'][$m[1]] = ($s['outcome'][$m[1]] ?? 0) + 1;
                        if ($m[1] !== 'hit') {
                            $s['lockms'][] = (float)$m[2];
                        }
                    } else {
                        $s['failed'] = ($s['failed'] ?? 0) + 1;
                        $s['firstFailure'] ??= $body ?? 'no reply';
                    }
                }
                unset($s);
            }
        }
        foreach ($run as $v) { // the round under MONITOR
            round_reset($redis, "$key:$v", $v);
            usleep(30000);
            $monitor = monitor_open($host, (int)$port);
            fire($socket, request_for($query($v)), $k, $wait + 30);
            usleep(20000);
            [$stats[$v]['sent'], $stats[$v]['lockSent']] = monitor_drain($monitor, $redis);
        }
    } finally {
        pool_stop($pool);
    }

    printf("## K = %d requests at once, %d php-fpm workers%s, %d rounds (+1 warm-up), rebuild %d ms\n",
        $k, $workers, $workers < $k ? ' (FEWER than K: requests queue in FPM)' : '', $rounds, $rebuildMs);
    printf("%-38s %7s %8s %8s %8s %13s %11s %9s %9s %9s %6s\n",
        'variant', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'rebuilds/rnd', 'waited/rnd', 'cmds/req', 'sent/req', 'lock/req', 'failed');
    foreach ($run as $v) {
        $s = $stats[$v];
        $lat = $s['latency'] ?? [];
        sort($lat);
        $n = $k * $rounds;
        $cmds = array_sum($s['calls'] ?? []) / $n;
        $rb = $s['rebuilds'];
        $rebuilds = min($rb) === max($rb) ? (string)$rb[0] : min($rb) . '-' . max($rb);
        $flag = (min($rb) !== 1 || max($rb) !== 1) && $v !== 'none' ? ' (!)' : '';
        if (array_sum($rb) !== ($s['outcome']['rebuilt'] ?? 0)) {
            $flag .= ' (!!)';
        }
        // served without rebuilding: after the wait, or (stale while revalidate) the stale value at once
        $waited = (($s['outcome']['waited'] ?? 0) + ($s['outcome']['stale'] ?? 0)) / $rounds;
        $sent = array_sum($s['sent']) / $k;
        $lockSent = $s['lockSent'] / $k;
        printf("%-38s %7.1f %8.1f %8.1f %8.1f %13s %11.1f %9.1f %9.1f %9.1f %6d\n", STAMPEDE_VARIANTS[$v], $n / $s['wall'],
            quantile($lat, 0.5), quantile($lat, 0.99), $lat ? end($lat) : NAN, $rebuilds . $flag, $waited, $cmds, $sent, $lockSent, $s['failed'] ?? 0);
        $rows[] = [$k, $v, $n / $s['wall'], quantile($lat, 0.5), quantile($lat, 0.99), $rebuilds . $flag, $waited, $cmds, $sent, $lockSent, $s['failed'] ?? 0];
        $dataBlocks[$v][] = sprintf('%d %.3f %.3f %.2f %.3f %.3f', $k, quantile($lat, 0.99), quantile($lat, 0.5), $n / $s['wall'], $cmds, $sent);
    }
    $perRequest = fn(array $calls, int $n) => implode(' ', array_map(fn($c, $x) => sprintf('%s %.2f', $c, $x / $n), array_keys($calls), $calls));
    echo "per request, by command: all that Redis ran (commandstats, top 8) | sent by the client (MONITOR round); time to the lock p50 / p99\n";
    foreach ($run as $v) {
        $calls = $stats[$v]['calls'] ?? [];
        arsort($calls);
        $lockms = $stats[$v]['lockms'] ?? [];
        sort($lockms);
        printf("  %-18s %s | %s; lock %.1f / %.1f ms\n", $v, $perRequest(array_slice($calls, 0, 8), $k * $rounds),
            $perRequest($stats[$v]['sent'], $k), quantile($lockms, 0.5), quantile($lockms, 0.99));
    }
    if (str_contains(implode(' ', array_column(array_filter($rows, fn($row) => $row[0] === $k), 5)), '(!')) {
        echo "(!) a round without exactly 1 rebuild; (!!) the Redis counter and the requests' answers disagree\n";
    }
    foreach ($run as $v) {
        if (isset($stats[$v]['firstFailure'])) {
            echo "  $v: first failure: " . substr($stats[$v]['firstFailure'], 0, 300) . "\n";
        }
    }
    echo "\n";
}
foreach ($skipped ?? [] as $note) {
    echo "note: $note\n";
}

// Markdown for docs/benchmarks.md: a row per K and variant.
echo "\n| K | variant | req/s | p50 ms | p99 ms | rebuilds per round | waited per round | Redis commands per request (sent by clients) | lock commands sent per request | failed |\n";
echo "|---|---|---|---|---|---|---|---|---|---|\n";
foreach ($rows as [$k, $v, $rps, $p50, $p99, $rebuilds, $waited, $cmds, $sent, $lockSent, $failed]) {
    printf("| %d | %s | %.0f | %.0f | %.0f | %s | %.0f | %.1f (%.1f) | %.1f | %d |\n", $k, STAMPEDE_VARIANTS[$v], $rps, $p50, $p99, $rebuilds, $waited, $cmds, $sent, $lockSent, $failed);
}

// gnuplot data: a block per variant (its title in the header line): K p99 p50 req/s cmds/req sent/req.
$blocks = [];
foreach ($dataBlocks as $v => $lines) {
    $blocks[] = sprintf("K \"%s\" p50 rps cmds sent\n%s\n", STAMPEDE_VARIANTS[$v], implode("\n", $lines));
}
file_put_contents($dat, implode("\n\n", $blocks));
