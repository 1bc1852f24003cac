<?php
/*
 * One round of one scenario of builds.sh, for the build loaded (php -d
 * extension=EXT_SO), printed as "SCENARIO VALUE":
 *   cycle-N    the lock + unlock cycle of RedisLock (N = 1) or RedLock
 *              (N = 3, 5 nodes), µs per cycle: the fastest of 20 slices
 *   handoff-W  a release to the next waiter's acquire, with W waiters,
 *              µs: the median of the round's handoffs
 *   php -d extension=EXT_SO builds_round.php SCENARIO HOST:PORT,... EXT_SO
 * A scenario at a time, so that the two builds' runs of it are close in time.
 * Env: BENCH_CYCLES (cycles per round, 3000), BENCH_HANDOFFS (handoffs per
 * round, 60).
 */
require __DIR__ . '/peers.php';
require __DIR__ . '/handoff_lib.php';

[, $scenario, $list, $ext] = $argv;
$servers = explode(',', $list);
[$kind, $n] = explode('-', $scenario);
$n = (int)$n;

if ($kind === 'cycle') {
    $cycles = max(20, (int)(getenv('BENCH_CYCLES') ?: 3000));
    $lock = new ExtLock($n === 1 ? new RedisLock($servers[0]) : new RedLock(array_slice($servers, 0, $n)));
    bench_cycles($lock, 'bench-builds', 20); // connections open, scripts cached
    // The round's fastest of 20 slices: other processes' work only ever adds
    // time, and on a busy machine it comes in phases of a second or so that
    // can triple a slice (a round trip waits for a core twice); the fastest
    // slice is the build's cost when the machine let it run.
    $slices = [];
    for ($i = 0; $i < 20; $i++) {
        $slices[] = bench_cycles($lock, 'bench-builds', intdiv($cycles, 20));
    }
    printf("%s %.3f\n", $scenario, min($slices));
} elseif ($kind === 'handoff') {
    // As handoff.php: held 10 ms, so that every other contender waits at each release.
    $handoffs = max(1, (int)(getenv('BENCH_HANDOFFS') ?: 60));
    $gaps = run_contenders('ext', $n + 1, max(4, intdiv($handoffs, $n + 1) + 1), 10, $servers[0], $ext);
    if (!$gaps) {
        fwrite(STDERR, "builds_round: no handoff seen with $n waiters\n");
        exit(1);
    }
    printf("%s %.3f\n", $scenario, $gaps[intdiv(count($gaps), 2)] * 1000);
} else {
    fwrite(STDERR, "builds_round: unknown scenario $scenario\n");
    exit(2);
}
