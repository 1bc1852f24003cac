<?php
/*
 * Lock + unlock cycle time of every implementation, side by side in one run.
 *   php cycle.php HOST:PORT,HOST:PORT,... [DELAY_MS [DAT_FILE]]
 * DELAY_MS only labels the run (the servers are then delay proxies);
 * DAT_FILE gets one gnuplot block per run (columns: nodes, then us/cycle per
 * family, "-" where not run). Env: BENCH_ROUNDS (7), BENCH_CYCLES (most
 * cycles in a round, 2000), BENCH_ROUND_MS (about how long a round lasts,
 * 300): a round is sized per implementation, so that 5 nodes behind a 2 ms
 * proxy do not take minutes. Rounds interleave the implementations so that
 * machine noise hits them alike; the table shows the median round.
 */
require __DIR__ . '/peers.php';

$servers = array_map(fn($s) => [explode(':', $s)[0], (int)explode(':', $s)[1]], explode(',', $argv[1]));
$delay = (float)($argv[2] ?? 0);
$dat = $argv[3] ?? null;
$rounds = max(1, (int)(getenv('BENCH_ROUNDS') ?: 7));
$maxCycles = max(1, (int)(getenv('BENCH_CYCLES') ?: 2000));
$roundMs = (float)(getenv('BENCH_ROUND_MS') ?: 300);
$families = ['ping', 'redislock', 'phpredis', 'predis', 'symfony'];

/** @var array<int, array{string, string, int, BenchLock}> name, family, nodes, lock */
$impls = [];
$add = function (string $name, string $family, int $n, callable $make) use (&$impls): void {
    try {
        $impls[] = [$name, $family, $n, $make()];
    } catch (Throwable $e) {
        fwrite(STDERR, "cycle: $name left out: {$e->getMessage()}\n");
    }
};
$add('ping floor (2 x PING)', 'ping', 1, fn() => new PingFloor(...$servers[0]));
foreach ([1, 3, 5] as $n) {
    if (count($servers) < $n) {
        continue;
    }
    $nodes = array_slice($servers, 0, $n);
    $addrs = array_map(fn($s) => "$s[0]:$s[1]", $nodes);
    $add($n === 1 ? 'redislock RedisLock' : 'redislock RedLock', 'redislock', $n,
        fn() => new ExtLock($n === 1 ? new RedisLock($addrs[0]) : new RedLock($addrs)));
    $add($n === 1 ? 'userland phpredis' : 'userland phpredis, in turn', 'phpredis', $n, fn() => new PhpredisSequentialLock($nodes));
    if (BENCH_HAVE_PREDIS) {
        $add($n === 1 ? 'predis' : 'predis, in turn', 'predis', $n, fn() => new PredisLock($nodes));
    }
    if (BENCH_HAVE_SYMFONY) {
        $add($n === 1 ? 'symfony/lock RedisStore' : 'symfony/lock Combined+Consensus', 'symfony', $n, fn() => new SymfonyLock($nodes));
    }
}
foreach (['predis' => BENCH_HAVE_PREDIS, 'symfony/lock' => BENCH_HAVE_SYMFONY] as $lib => $have) {
    if (!$have) {
        fwrite(STDERR, "cycle: $lib not installed, left out\n");
    }
}

// Warm up (connections open, scripts cached), then size each one's rounds
// from a third of a round's time (or 200 cycles, whichever comes first).
$cycles = [];
foreach ($impls as $i => [, , , $l]) {
    bench_cycles($l, "bench-cycle-$i", 3);
    $start = hrtime(true);
    for ($n = 0; $n < 200 && (hrtime(true) - $start) < $roundMs * 1e6 / 3; $n++) {
        bench_cycles($l, "bench-cycle-$i", 1);
    }
    $est = (hrtime(true) - $start) / 1e3 / $n;
    $cycles[$i] = max(3, min($maxCycles, (int)($roundMs * 1000 / $est)));
}
$samples = [];
for ($r = 0; $r < $rounds; $r++) {
    foreach ($impls as $i => [, , , $l]) {
        $samples[$i][] = bench_cycles($l, "bench-cycle-$i", $cycles[$i]);
    }
}
$median = function (array $xs): float { sort($xs); return $xs[intdiv(count($xs), 2)]; };
$us = [];
foreach ($impls as $i => [, $family, $n]) {
    $us[$family][$n] = $median($samples[$i]);
}

$label = $delay > 0 ? "through a proxy adding $delay ms each way" : 'direct, loopback';
echo "## lock + unlock cycle, $label ($rounds rounds, median)\n";
printf("%-32s %5s %11s %12s %12s\n", 'implementation', 'nodes', 'us/cycle', 'x RedisLock', 'x userland');
$base = $us['redislock'][1];
foreach ($impls as $i => [$name, $family, $n]) {
    $m = $us[$family][$n];
    printf("%-32s %5d %11.1f %12.2f %12s\n", $name, $n, $m, $m / $base,
        isset($us['phpredis'][$n]) ? sprintf('%.2f', $m / $us['phpredis'][$n]) : '-');
}
echo "(x RedisLock: against this extension's single-node cycle; x userland: against userland phpredis on as many nodes)\n";

// The project's targets, printed for reading, never asserted.
$check = function (string $what, float $value, string $op, float $limit): void {
    $met = $op === '<=' ? $value <= $limit : $value >= $limit;
    printf("target: %-52s %6.2f (want %s %.2f) %s\n", $what, $value, $op, $limit, $met ? 'met' : 'NOT met');
};
$check('1 node: RedisLock / userland phpredis', $base / $us['phpredis'][1], '<=', 1.0);
$check('1 node: RedisLock / 2 x PING', $base / $us['ping'][1], '<=', 1.1);
if (isset($us['redislock'][5])) {
    $check('5 nodes: RedLock x5 / RedisLock', $us['redislock'][5] / $base, '<=', 1.3);
    $check('5 nodes: userland in turn x5 / RedLock x5', $us['phpredis'][5] / $us['redislock'][5], '>=', 3.0);
}

if ($dat !== null) {
    $rows = ["# delay_ms=$delay: us per lock + unlock cycle", '# nodes ' . implode(' ', $families)];
    foreach ([1, 3, 5] as $n) {
        if (count($servers) >= $n) {
            $rows[] = $n . ' ' . implode(' ', array_map(fn($f) => isset($us[$f][$n]) ? sprintf('%.1f', $us[$f][$n]) : '-', $families));
        }
    }
    file_put_contents($dat, implode("\n", $rows) . "\n\n\n", FILE_APPEND);
}
