<?php
/*
 * What option holder_names costs: the lock + unlock cycle of the same
 * build with the option off and on, interleaved round by round (off, on,
 * then on, off), as ratios. The name rides in the token: a longer value in
 * the same command, no command more.
 *   php -d extension=EXT holder_names.php HOST:PORT[,HOST:PORT,HOST:PORT]
 * Env: BENCH_ROUNDS (16), BENCH_CYCLES (cycles per round and setting, 3000).
 */
[, $list] = $argv;
$servers = explode(',', $list);
$rounds = max(2, (int)(getenv('BENCH_ROUNDS') ?: 16));
$cycles = max(1, (int)(getenv('BENCH_CYCLES') ?: 3000));

require __DIR__ . '/quantile.php';

/** µs per lock + unlock cycle of $lock, over $n cycles. */
function cycle_us(RedisLock|RedLock $lock, int $n): float
{
    $t = hrtime(true);
    for ($i = 0; $i < $n; $i++) {
        $lock->unlock('bench-holder-names', $lock->lock('bench-holder-names', 10000));
    }
    return (hrtime(true) - $t) / 1e3 / $n;
}

$scenarios = ['RedisLock, 1 node' => [$servers[0]]];
if (count($servers) >= 3) {
    $scenarios['RedLock, 3 nodes'] = array_slice($servers, 0, 3);
}
printf("%-18s %6s %10s %10s %8s %14s\n", 'scenario', 'rounds', 'off us', 'on us', 'on/off', 'per-round IQR');
foreach ($scenarios as $name => $nodes) {
    $make = fn(bool $on) => count($nodes) === 1 ? new RedisLock($nodes[0], ['holder_names' => $on])
                                                : new RedLock($nodes, 200, 3, ['holder_names' => $on]);
    $locks = [false => $make(false), true => $make(true)];
    $tok = $locks[true]->lock('bench-holder-names', 10000);   // warm up, and show what a token carries
    $locks[true]->unlock('bench-holder-names', $tok);
    cycle_us($locks[false], 200);
    $off = $on = $ratios = [];
    for ($r = 0; $r < $rounds; $r++) {
        foreach ($r % 2 ? [true, false] : [false, true] as $setting) {
            ${$setting ? 'on' : 'off'}[$r] = cycle_us($locks[$setting], $cycles);
        }
        $ratios[] = $on[$r] / $off[$r];
    }
    printf("%-18s %6d %10.1f %10.1f %8.3f    [%.2f-%.2f]\n", $name, $rounds, quantile($off, 0.5), quantile($on, 0.5),
        quantile($on, 0.5) / quantile($off, 0.5), quantile($ratios, 0.25), quantile($ratios, 0.75));
}
echo "(a token with the option: ", strlen($tok), " bytes against 32; the name: \"",
    str_replace(__DIR__ . '/', '', substr($tok, 33)), "\")\n";
