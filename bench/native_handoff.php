<?php
/*
 * The handoff where the server has a native release (issue 35): there,
 * unlock() with waiters queued as DELIFEQ/DELEX + EXISTS would need the
 * wake script after it, a round trip more than the release script, which
 * deletes and wakes in one; so a lock taken after a wait (others likely
 * queued behind it) is released by the script. This measures the next
 * holder's wait: release to its acquire (handoff.php's measure), 1 and 4
 * waiters, the default against the script alone on the same server (a user
 * whose ACL lacks the native command gets the script), in turns, R rounds;
 * medians of the rounds' medians and p90s. A build that sent the native
 * release after a wait too showed the default's extra round trip here.
 *
 *   php bench/native_handoff.php HOST:PORT EXT_SO [ROUNDS]
 *
 * Env BENCH_DELAY_MS: the clients reach the server through delay_proxy.php,
 * each way that much later (a server on another host: the extra round trip
 * shows at its real price).
 * Needs phpredis (the ACL user is made with it). Latency: read ratios on a
 * busy machine, not absolute figures.
 */
require __DIR__ . '/handoff_lib.php';
require __DIR__ . '/native_lib.php';

[$addr, $ext, $rounds] = [$argv[1] ?? '127.0.0.1:6379', $argv[2] ?? 'modules/redislock.so', (int)($argv[3] ?? 3)];
$native = bench_native_setup($addr, 'native_handoff', $admin);
$delay = (float)(getenv('BENCH_DELAY_MS') ?: 0);
$via = $addr;
if ($delay > 0) {
    $portFile = tempnam(sys_get_temp_dir(), 'rl-delay');
    unlink($portFile);
    $proxy = proc_open([PHP_BINARY, __DIR__ . '/delay_proxy.php', $addr, (string)$delay, '3600', $portFile], [], $pipes);
    for ($until = microtime(true) + 10; !is_file($portFile) || trim((string)file_get_contents($portFile)) === '';) {
        if (microtime(true) > $until) {
            fwrite(STDERR, "native_handoff: the delay proxy did not start\n");
            exit(2);
        }
        usleep(10000);
    }
    $via = '127.0.0.1:' . trim((string)file_get_contents($portFile));
}
$forms = ['default' => $via, 'script (evalsha)' => "redis://bench_script:bench@$via"];
$median = fn(array $xs) => $xs ? $xs[intdiv(count($xs), 2)] : NAN;
$pct = fn(array $xs, float $p) => $xs ? $xs[min(count($xs) - 1, (int)floor($p * count($xs)))] : NAN;

$info = $admin->info('server');
printf("# %s %s, %d rounds, hold 10 ms, %s; handoff = release to the next holder's acquire (ms), medians of the rounds\n",
    isset($info['valkey_version']) ? 'Valkey' : 'Redis', $info['valkey_version'] ?? $info['redis_version'], $rounds,
    $delay > 0 ? "$delay ms each way (delay proxy)" : 'loopback');
printf("%-30s %8s %10s %12s %12s %10s\n", 'release', 'waiters', 'handoffs', 'median ms', 'p90 ms', 'x script');
foreach ([1, 4] as $waiters) {
    $seen = [];
    for ($r = 0; $r < $rounds; $r++) {
        foreach ($forms as $label => $server) {
            $gaps = run_contenders('ext', $waiters + 1, max(4, intdiv(200, $waiters + 1)), 10, $server, $ext);
            $seen[$label]['n'][] = count($gaps);
            $seen[$label]['med'][] = $pct($gaps, 0.5);
            $seen[$label]['p90'][] = $pct($gaps, 0.9);
        }
    }
    $script = null;
    foreach (array_reverse($seen, true) as $label => $s) {
        sort($s['med']);
        sort($s['p90']);
        $script ??= $median($s['med']);
        $rows[$label] = sprintf("%-30s %8d %10d %12.3f %12.3f %10.2f\n", $label, $waiters, array_sum($s['n']),
            $median($s['med']), $median($s['p90']), $median($s['med']) / $script);
    }
    echo $rows['default'], $rows['script (evalsha)'];
}
$admin->rawCommand('ACL', 'DELUSER', 'bench_script');
if (isset($proxy)) {
    proc_terminate($proxy);
    proc_close($proxy);
    @unlink($portFile);
}
