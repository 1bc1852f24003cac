<?php
/*
 * The release's cost on the server, the script against the server's own
 * compare-and-delete (issue 35): N uncontended lock + unlock cycles, once
 * with unlock() as DELIFEQ/DELEX + EXISTS (the default where the server
 * has them) and once as the release script (a user whose ACL lacks the
 * native command: its first refusal turns it off on the connection), in
 * turns, R rounds; usec per call from INFO commandstats (a script's inner
 * calls inside EVALSHA's). One server, this process alone on it.
 *
 *   php -d extension=modules/redislock.so bench/native_release.php HOST:PORT [N] [ROUNDS]
 *
 * Prints one line per form: the release's commands' usec per call and per
 * release (summed), their ratio to the script, the medians of the rounds.
 */
require __DIR__ . '/native_lib.php';

[$addr, $n, $rounds] = [$argv[1] ?? '127.0.0.1:6379', (int)($argv[2] ?? 2000), (int)($argv[3] ?? 3)];
$native = bench_native_setup($addr, 'native_release', $admin);

/** usec and calls of each command since the last CONFIG RESETSTAT */
function stats(Redis $r): array
{
    $out = [];
    foreach ($r->info('commandstats') as $k => $v) {
        if (preg_match('/^cmdstat_(\w+)$/', $k, $m) && preg_match('/calls=(\d+),usec=(\d+)/', $v, $c)) {
            $out[$m[1]] = ['calls' => (int)$c[1], 'usec' => (int)$c[2]];
        }
    }
    return $out;
}

$forms = [
    "$native + exists" => [new RedisLock($addr), [$native, 'exists']],
    'script (evalsha)' => [new RedisLock("redis://bench_script:bench@$addr"), ['evalsha']],
];
$per = [];
for ($round = 0; $round < $rounds; $round++) {
    foreach ($forms as $form => [$lock, $cmds]) {
        $t = $lock->lock('bench-native', 10000); // warm: connected, probed, refusal learned
        $lock->unlock('bench-native', $t);
        $admin->rawCommand('CONFIG', 'RESETSTAT');
        for ($i = 0; $i < $n; $i++) {
            $t = $lock->lock('bench-native', 10000);
            $lock->unlock('bench-native', $t);
        }
        $s = stats($admin);
        $usec = 0;
        foreach ($cmds as $c) {
            $usec += $s[$c]['usec'] ?? 0;
        }
        $per[$form]['release'][] = $usec / $n;
        $per[$form]['call'][] = ($s[$cmds[0]]['usec'] ?? 0) / max(1, $s[$cmds[0]]['calls'] ?? 0);
    }
}
$median = function (array $a) { sort($a); return $a[intdiv(count($a), 2)]; };
$info = $admin->info('server');
printf("# %s %s, %d rounds x %d uncontended lock+unlock cycles, medians; usec from INFO commandstats\n",
    isset($info['valkey_version']) ? 'Valkey' : 'Redis', $info['valkey_version'] ?? $info['redis_version'], $rounds, $n);
printf("%-22s %16s %18s %10s\n", 'release', 'usec/call (1st)', 'usec/release (sum)', 'x script');
$script = $median($per['script (evalsha)']['release']);
foreach ($per as $form => $p) {
    printf("%-22s %16.2f %18.2f %10.2f\n", $form, $median($p['call']), $median($p['release']), $median($p['release']) / $script);
}
