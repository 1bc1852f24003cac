<?php
/*
 * lockMany() against taking the same resources one by one: a cycle is
 * lockMany() + unlockMany() of K resources, or K lock() + K unlock(), on
 * the same objects, interleaved round by round (together, one by one, then
 * one by one, together), as ratios. lockMany() is one script per node
 * either way; one by one is a round trip per resource and per release.
 *   php -d extension=EXT lock_many.php HOST:PORT[,HOST:PORT,HOST:PORT]
 * Env: BENCH_ROUNDS (16), BENCH_CYCLES (cycles per round and way, 1000).
 */
[, $list] = $argv;
$servers = explode(',', $list);
$rounds = max(2, (int)(getenv('BENCH_ROUNDS') ?: 16));
$cycles = max(1, (int)(getenv('BENCH_CYCLES') ?: 1000));

require __DIR__ . '/quantile.php';

/** µs per cycle of $k resources, together or one by one, over $n cycles. */
function cycle_us(RedisLock|RedLock $lock, array $names, bool $together, int $n): float
{
    $t = hrtime(true);
    for ($i = 0; $i < $n; $i++) {
        if ($together) {
            $lock->unlockMany($names, $lock->lockMany($names, 10000));
            continue;
        }
        $tokens = [];
        foreach ($names as $name) {
            $tokens[$name] = $lock->lock($name, 10000);
        }
        foreach ($tokens as $name => $token) {
            $lock->unlock($name, $token);
        }
    }
    return (hrtime(true) - $t) / 1e3 / $n;
}

$scenarios = ['RedisLock, 1 node' => [$servers[0]]];
if (count($servers) >= 3) {
    $scenarios['RedLock, 3 nodes'] = array_slice($servers, 0, 3);
}
printf("%-18s %3s %6s %12s %12s %10s %14s\n", 'scenario', 'K', 'rounds', 'together us', 'one by one', 'ratio', 'per-round IQR');
foreach ($scenarios as $name => $nodes) {
    $lock = count($nodes) === 1 ? new RedisLock($nodes[0]) : new RedLock($nodes, 200, 3);
    foreach ([2, 5] as $k) {
        $names = array_map(fn($i) => "bench-many-$i", range(1, $k));
        cycle_us($lock, $names, true, 100);   // warm up: connections, scripts
        cycle_us($lock, $names, false, 100);
        $together = $apart = $ratios = [];
        for ($r = 0; $r < $rounds; $r++) {
            foreach ($r % 2 ? [false, true] : [true, false] as $way) {
                ${$way ? 'together' : 'apart'}[$r] = cycle_us($lock, $names, $way, $cycles);
            }
            $ratios[] = $together[$r] / $apart[$r];
        }
        printf("%-18s %3d %6d %12.1f %12.1f %10.3f    [%.2f-%.2f]\n", $name, $k, $rounds, quantile($together, 0.5),
            quantile($apart, 0.5), quantile($together, 0.5) / quantile($apart, 0.5), quantile($ratios, 0.25),
            quantile($ratios, 0.75));
    }
}
echo "(ratio: lockMany() + unlockMany() time over K lock() + K unlock(); below 1 is faster)\n";
