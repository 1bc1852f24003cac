<?php
/*
 * on_lost: how soon the holder's busy PHP code gets its
 * RedisLockLostException.
 * - auto_extend: from the key deleted by another client to the exception;
 *   the watchdog finds out at its next extension (every third of the TTL),
 *   so this is mostly that wait: up to TTL/3, TTL/6 on average.
 * - without auto_extend: from the end of the validity as the holder counts
 *   it (the lock's start + its TTL) to the exception: the watchdog's timer
 *   and the engine's interrupt.
 *   php onlost.php HOST:PORT [TRIALS [TTL_MS [TIMER_TTL_MS]]]
 */
require __DIR__ . '/quantile.php';

$server = $argv[1];
$trials = (int)($argv[2] ?? 200);
$ttl = (int)($argv[3] ?? 300);
$timerTtl = (int)($argv[4] ?? 100);

$us = fn(int $ns): float => $ns / 1e3;
$report = function (string $name, array $xs): void {
    printf("%-46s n=%d  p50 %9.1f us  p99 %9.1f us  max %9.1f us\n", $name, count($xs), quantile($xs, 0.5),
        quantile($xs, 0.99), max($xs));
};

$other = new RedisLock($server);
$l = new RedisLock($server, ['auto_extend' => true, 'on_lost' => 'throw']);
$delays = [];
$early = 0;
for ($k = 0; $k < $trials; $k++) {
    $t = $l->lock("bench-onlost-$k", $ttl);
    $deleted = null;
    try {
        // a random moment in the extension's period
        usleep(mt_rand(0, (int)($ttl * 1000 / 3)));
        $other->forceUnlock("bench-onlost-$k");
        $deleted = hrtime(true);
        for ($i = 0; $i < PHP_INT_MAX; $i++) {
        }
    } catch (RedisLockLostException $e) {
        if ($deleted === null) {
            $early++; // lost before the delete: the watchdog did not extend it in time (a loaded machine)
        } else {
            $delays[] = $us(hrtime(true) - $deleted);
        }
    }
    $l->unlock("bench-onlost-$k", $t);
}
echo "## on_lost 'throw', auto_extend, TTL $ttl ms: the key deleted by another client -> the exception\n";
$report('deleted -> exception', $delays);
printf("%-46s %.1f us (the extension every TTL/3; a delete lands at a random point of it)\n", 'expected mean of the wait alone', $ttl * 1000 / 6);
printf("%-46s %d of %d\n", 'lost before the delete (not extended in time)', $early, $trials);

$l = new RedisLock($server, ['on_lost' => 'throw']);
$delays = $rtts = [];
for ($k = 0; $k < $trials; $k++) {
    $before = hrtime(true);
    $t = $l->lock("bench-onlost-t$k", $timerTtl);
    $rtts[] = $us(hrtime(true) - $before);
    try {
        for ($i = 0; $i < PHP_INT_MAX; $i++) {
        }
    } catch (RedisLockLostException $e) {
        // the validity ends at the lock's start + its TTL, the start taken
        // inside lock(): after $before, so this is the delay or a bit more
        $delays[] = $us(hrtime(true) - $before) - $timerTtl * 1000;
    }
    $l->unlock("bench-onlost-t$k", $t);
}
echo "\n## on_lost 'throw', no auto_extend, TTL $timerTtl ms: the end of the validity -> the exception\n";
$report('validity end -> exception (at most)', $delays);
$report('(the lock() call: the bound\'s slack)', $rtts);
