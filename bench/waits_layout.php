<?php
/*
 * Where a Cluster's waiters send their commands: waiters on 300 resources
 * spread over 3 masters, with deadlock detection (its records are one hash,
 * "<prefix>\0waits", in one slot) and without (option deadlock_detection
 * false), in one run. Counts, not times: INFO commandstats on each master
 * after CONFIG RESETSTAT, summed per master, and each master's share of
 * the whole against an even third (share 1.00x).
 *   php -d extension=modules/redislock.so bench/waits_layout.php [WAITERS]
 * This process holds all 300 locks; WAITERS children (6) each wait in turn
 * on their share of the resources with lock($res, 5000, 0.3): a queued wait
 * that ends at its deadline (a look, the deadlock script, a blocking read,
 * the leave). Starts its own cluster (tests/cluster.inc, 3 masters, no
 * replicas) on free loopback ports and stops it by pid.
 */
require __DIR__ . '/../tests/cluster.inc';

$waiters = max(1, (int)($argv[1] ?? 6));
$resources = 300;
if (!extension_loaded('redislock')) {
    fwrite(STDERR, "waits_layout: the redislock extension is not loaded (php -d extension=modules/redislock.so)\n");
    exit(1);
}
if (!getenv('REDISLOCK_TEST_REDIS_SERVER')) {
    putenv('REDISLOCK_TEST_REDIS_SERVER=' . (rl_which('redis-server') ?? 'redis-server'));
}
$cluster = new RlTestCluster(3, 0);
$seeds = ['cluster' => [$cluster->seeds()[0]]];
$masters = $cluster->masters();
sort($masters);
$records = $cluster->masterFor("lock:\0waits");

/**
 * What each master did since its last CONFIG RESETSTAT: commands the clients
 * sent (INFO stats total_commands_processed: a script is one, not the
 * commands it calls) and the microseconds its commands took (INFO
 * commandstats usec, scripts' inner commands left out: a script's usec
 * holds theirs).
 */
function per_master(RlTestCluster $c, array $masters): array
{
    $out = [];
    foreach ($masters as $m) {
        preg_match('/total_commands_processed:(\d+)/', $c->cmd($m, 'INFO', 'stats'), $mm);
        $usec = 0;
        foreach (explode("\r\n", $c->cmd($m, 'INFO', 'commandstats')) as $line) {
            if (preg_match('/^cmdstat_(eval|evalsha|xread|hdel):calls=\d+,usec=(\d+)/', $line, $u)) {
                $usec += (int)$u[2];
            }
        }
        // less this call's own INFO and the CONFIG RESETSTAT before
        $out[$m] = ['commands' => (int)$mm[1] - 2, 'usec' => $usec];
    }
    return $out;
}

$names = [];
$onMaster = [];
for ($i = 0; $i < $resources; $i++) {
    $names[] = "wl-$i";
    $m = $cluster->masterFor("lock:wl-$i");
    $onMaster[$m] = ($onMaster[$m] ?? 0) + 1;
}

echo "# waiters on $resources resources of a 3-master Cluster: commands per master (INFO commandstats)\n";
echo "# command: php bench/waits_layout.php $waiters\n";
echo "# the deadlock records (lock:\\0waits) live on ", $records, "\n";
foreach ([true, false] as $detect) {
    $holder = new RedisLock($seeds, ['deadlock_detection' => $detect]);
    $tokens = [];
    foreach ($names as $n) {
        $tokens[$n] = $holder->lock($n, 600000);
    }
    foreach ($masters as $m) {
        $cluster->cmd($m, 'CONFIG', 'RESETSTAT');
    }
    $children = [];
    for ($w = 0; $w < $waiters; $w++) {
        $mine = array_values(array_filter($names, fn($n) => (int)substr($n, 3) % $waiters === $w));
        $children[] = rl_php_child_start('$l = new RedisLock(' . var_export($seeds, true) . ', ["deadlock_detection" => '
            . var_export($detect, true) . ']);
foreach (' . var_export($mine, true) . ' as $n) { if ($l->lock($n, 5000, 0.3) !== null) { echo "got $n\n"; } }');
    }
    foreach ($children as $c) {
        [$code, $out, $err] = $c->wait(600);
        if ($code !== 0 || trim($out . $err) !== '') {
            fwrite(STDERR, "a waiter failed: exit $code $out $err\n");
            exit(1);
        }
    }
    $calls = per_master($cluster, $masters);
    $total = array_sum(array_column($calls, 'commands'));
    $usec = array_sum(array_column($calls, 'usec'));
    printf("\n## deadlock_detection %s: %d commands for %d waits (%.1f a wait), %d us in scripts and blocking reads\n",
        $detect ? 'true' : 'false', $total, $resources, $total / $resources, $usec);
    printf("%-22s %9s %9s %10s %9s %10s\n", 'master', 'resources', 'commands', 'share', 'us', 'share');
    foreach ($masters as $m) {
        printf("%-22s %9d %9d %9.2fx %9d %9.2fx%s\n", $m, $onMaster[$m] ?? 0, $calls[$m]['commands'],
            $calls[$m]['commands'] / ($total / count($masters)), $calls[$m]['usec'], $calls[$m]['usec'] / ($usec / count($masters)),
            $m === $records ? '  (the records)' : '');
    }
    foreach ($tokens as $n => $t) {
        $holder->unlock($n, $t);
    }
}
