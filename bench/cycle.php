<?php
/*
 * Lock + unlock cycle time, side by side in one run.
 *   php cycle.php HOST:PORT,HOST:PORT,... [cycles per round] [rounds]
 * Prints a table: implementation, nodes, median µs per cycle, ratio to the
 * extension's single-node RedisLock. Rounds interleave the implementations so
 * that machine noise hits them alike.
 */
require __DIR__ . '/peers.php';

$servers = array_map(fn($s) => [explode(':', $s)[0], (int)explode(':', $s)[1]], explode(',', $argv[1]));
$cycles = (int)($argv[2] ?? 2000);
$rounds = (int)($argv[3] ?? 7);
$addr = fn(int $n) => array_map(fn($s) => "$s[0]:$s[1]", array_slice($servers, 0, $n));

$impls = [
    'ping floor (2 x PING)' => [1, new PingFloor(...$servers[0])],
    'redislock RedisLock' => [1, new ExtLock(new RedisLock($addr(1)[0]))],
    'userland phpredis' => [1, new PhpredisSequentialLock(array_slice($servers, 0, 1))],
];
foreach ([3, 5] as $n) {
    if (count($servers) >= $n) {
        $impls["redislock RedLock x$n"] = [$n, new ExtLock(new RedLock($addr($n)))];
        $impls["userland phpredis, nodes in turn x$n"] = [$n, new PhpredisSequentialLock(array_slice($servers, 0, $n))];
    }
}

function bench_round(BenchLock $l, int $cycles): float
{
    $start = hrtime(true);
    for ($i = 0; $i < $cycles; $i++) {
        $t = $l->lock('bench-cycle', 10000);
        if ($t === null) {
            throw new RuntimeException(get_class($l) . ': lock not acquired');
        }
        $l->unlock('bench-cycle', $t);
    }
    return (hrtime(true) - $start) / 1e3 / $cycles;
}

$samples = [];
foreach ($impls as $name => [, $l]) {
    bench_round($l, 200); // warm-up: connections open, scripts cached
}
for ($r = 0; $r < $rounds; $r++) {
    foreach ($impls as $name => [, $l]) {
        $samples[$name][] = bench_round($l, $cycles);
    }
}
$median = function (array $xs): float { sort($xs); return $xs[intdiv(count($xs), 2)]; };
$base = $median($samples['redislock RedisLock']);
printf("%-38s %5s %12s %10s\n", 'implementation', 'nodes', 'us/cycle', 'ratio');
foreach ($impls as $name => [$n]) {
    $m = $median($samples[$name]);
    printf("%-38s %5d %12.1f %10.2f\n", $name, $n, $m, $m / $base);
}
