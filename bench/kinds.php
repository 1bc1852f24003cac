<?php
/*
 * The cost of the lock kinds, side by side in one run: a plain lock + unlock
 * cycle, the same with fencing, a shared lock cycle and a permit cycle, on
 * one node (RedisLock) and on five (RedLock; no permits there).
 *   php kinds.php HOST:PORT,... [DELAY_MS]
 * DELAY_MS only labels the run (the servers are then delay proxies). Env:
 * BENCH_ROUNDS (7), BENCH_ROUND_MS (300). Rounds interleave the kinds so
 * machine noise hits them alike; the table shows the median round and each
 * kind's ratio to the plain lock on as many nodes.
 */
$servers = explode(',', $argv[1]);
$delay = (float)($argv[2] ?? 0);
$rounds = max(1, (int)(getenv('BENCH_ROUNDS') ?: 7));
$roundMs = (float)(getenv('BENCH_ROUND_MS') ?: 300);

/** name => [nodes, kind, cycle(resource)] */
$cases = [];
foreach ([1, 5] as $n) {
    if (count($servers) < $n) {
        continue;
    }
    $make = fn(array $o) => $n === 1 ? new RedisLock($servers[0], $o) : new RedLock(array_slice($servers, 0, $n), 200, 3, $o);
    $plain = $make([]);
    $fenced = $make(['fencing' => true]);
    $cls = $n === 1 ? 'RedisLock' : "RedLock x$n";
    $cases["$cls lock"] = [$n, 'lock', fn($r) => $plain->unlock($r, $plain->lock($r, 10000))];
    $cases["$cls lock, fencing"] = [$n, 'fencing', function ($r) use ($fenced) {
        $t = $fenced->lock($r, 10000);
        $fenced->fencingToken($r);
        $fenced->unlock($r, $t);
    }];
    $cases["$cls lockShared"] = [$n, 'shared', fn($r) => $plain->unlock($r, $plain->lockShared($r, 10000))];
    if ($n === 1) {
        $cases["$cls acquirePermit (limit 3)"] = [$n, 'permit', fn($r) => $plain->unlock($r, $plain->acquirePermit($r, 3, 10000))];
    }
}

$run = function (callable $cycle, string $resource, int $count): float {
    $start = hrtime(true);
    for ($i = 0; $i < $count; $i++) {
        $cycle($resource);
    }
    return (hrtime(true) - $start) / 1e3 / $count;
};
$counts = [];
foreach ($cases as $name => [, , $cycle]) {
    $resource = 'bench-kinds-' . md5($name);
    $run($cycle, $resource, 5);                          // warm: connections, scripts
    $est = $run($cycle, $resource, 20);
    $counts[$name] = max(5, min(3000, (int)($roundMs * 1000 / $est)));
}
$samples = [];
for ($i = 0; $i < $rounds; $i++) {
    foreach ($cases as $name => [, , $cycle]) {
        $samples[$name][] = $run($cycle, 'bench-kinds-' . md5($name), $counts[$name]);
    }
}
$median = function (array $xs): float { sort($xs); return $xs[intdiv(count($xs), 2)]; };
$label = $delay > 0 ? "through a proxy adding $delay ms each way" : 'direct, loopback';
echo "## lock kinds, acquire + release cycle, $label ($rounds rounds, median)\n";
printf("%-34s %5s %11s %10s\n", 'kind', 'nodes', 'us/cycle', 'x lock');
$base = [];
foreach ($cases as $name => [$n, $kind]) {
    $m = $median($samples[$name]);
    if ($kind === 'lock') {
        $base[$n] = $m;
    }
    printf("%-34s %5d %11.1f %10.2f\n", $name, $n, $m, $m / $base[$n]);
}
echo "(x lock: against the plain lock + unlock on as many nodes; fencing on one node is the acquire script\n"
   . " instead of SET NX PX, still one round trip; on RedLock a write-back goes out only when the nodes' counters differ)\n";
