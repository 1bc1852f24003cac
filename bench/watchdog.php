<?php
/*
 * What auto_extend costs: the lock + unlock cycle with and without it (the
 * lock is handed to the watchdog in memory: no round trip), and the Redis
 * commands per second the watchdog sends for N held locks.
 *   php watchdog.php HOST:PORT [HELD_LOCKS [TTL_MS [SECONDS]]]
 * Env: BENCH_ROUNDS (7), BENCH_ROUND_MS (300).
 */
$server = $argv[1];
$held = (int)($argv[2] ?? 100);
$ttl = (int)($argv[3] ?? 3000);
$seconds = (float)($argv[4] ?? 6);
$rounds = max(1, (int)(getenv('BENCH_ROUNDS') ?: 7));
$roundMs = (float)(getenv('BENCH_ROUND_MS') ?: 300);
[$host, $port] = explode(':', $server);

$cases = ['lock + unlock' => new RedisLock($server), 'lock + unlock, auto_extend' => new RedisLock($server, ['auto_extend' => true])];
$run = function (RedisLock $l, int $count): float {
    $start = hrtime(true);
    for ($i = 0; $i < $count; $i++) {
        $l->unlock('bench-wd', $l->lock('bench-wd', 10000));
    }
    return (hrtime(true) - $start) / 1e3 / $count;
};
$counts = [];
foreach ($cases as $name => $l) {
    $run($l, 5);
    $counts[$name] = max(5, min(5000, (int)($roundMs * 1000 / $run($l, 50))));
}
$samples = [];
for ($i = 0; $i < $rounds; $i++) {
    foreach ($cases as $name => $l) {
        $samples[$name][] = $run($l, $counts[$name]);
    }
}
$median = function (array $xs): float { sort($xs); return $xs[intdiv(count($xs), 2)]; };
echo "## auto_extend: cycle cost ($rounds rounds, median)\n";
$base = null;
foreach ($samples as $name => $xs) {
    $m = $median($xs);
    $base ??= $m;
    printf("%-32s %9.1f us/cycle %6.2fx\n", $name, $m, $m / $base);
}

// The watchdog's own load: $held locks held for $seconds, counted on the server.
$r = new Redis();
$r->connect($host, (int)$port);
$calls = function () use ($r): int {
    $n = 0;
    foreach ($r->info('commandstats') as $k => $v) {
        if (in_array($k, ['cmdstat_evalsha', 'cmdstat_eval'], true)) {
            $n += (int)preg_replace('/^calls=(\d+).*/', '$1', $v);
        }
    }
    return $n;
};
$l = new RedisLock($server, ['auto_extend' => true]);
$tokens = [];
for ($i = 0; $i < $held; $i++) {
    $tokens[$i] = $l->lock("bench-wd-held-$i", $ttl);
}
usleep(200000);
$before = $calls();
$start = microtime(true);
usleep((int)($seconds * 1e6));
$per = ($calls() - $before) / (microtime(true) - $start);
$stillHeld = count(array_filter(array_keys($tokens), fn($i) => $l->isHeld("bench-wd-held-$i")));
foreach ($tokens as $i => $t) {
    $l->unlock("bench-wd-held-$i", $t);
}
printf("\n## watchdog load: %d locks of %d ms held %.0f s\n", $held, $ttl, $seconds);
printf("extend commands per second: %.1f (expected %d locks x 3 / %.1f s = %.1f), still held: %d of %d\n",
    $per, $held, $ttl / 1000, $held * 3000 / $ttl, $stillHeld, $held);
