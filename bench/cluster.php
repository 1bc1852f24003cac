<?php
/*
 * Lock + unlock cycle on a Redis Cluster against a standalone redis-server,
 * side by side in one run (same machine, loopback):
 *   - redislock RedisLock on the cluster (['cluster' => seeds]),
 *   - redislock RedisLock on a standalone server: the baseline (the goal is
 *     the cluster within 5% of it),
 *   - userland phpredis \RedisCluster: SET NX PX, release by EVAL of a
 *     compare-and-delete,
 *   - userland phpredis \Redis on the standalone server, the same commands.
 *   php -d extension=modules/redislock.so bench/cluster.php [CYCLES]
 * Starts its own cluster, 3 masters with a replica each (tests/cluster.inc),
 * and its own standalone redis-server (RlTestServer), on free loopback ports,
 * and stops them by pid. REDISLOCK_TEST_REDIS_SERVER names redis-server (the
 * one on PATH when unset). Each cycle is one lock($res, 10000) and one
 * unlock(); the resources cycle over 64 names, spread over the three
 * masters. Every variant runs CYCLES cycles (2000) a round; rounds (5, env
 * BENCH_ROUNDS) interleave the variants so that machine noise hits them
 * alike; the table shows the median round.
 */
require __DIR__ . '/../tests/cluster.inc';

$cycles = max(1, (int)($argv[1] ?? 2000));
$rounds = max(1, (int)(getenv('BENCH_ROUNDS') ?: 5));
$names = 64;
$release = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

if (!extension_loaded('redislock')) {
    fwrite(STDERR, "cluster: the redislock extension is not loaded (php -d extension=modules/redislock.so)\n");
    exit(1);
}
if (!getenv('REDISLOCK_TEST_REDIS_SERVER')) {
    $bin = rl_which('redis-server');
    if ($bin === null) {
        fwrite(STDERR, "cluster: redis-server not found (set REDISLOCK_TEST_REDIS_SERVER)\n");
        exit(1);
    }
    putenv("REDISLOCK_TEST_REDIS_SERVER=$bin");
}

$cluster = new RlTestCluster();
$standalone = new RlTestServer();
$pids = [$standalone->pid()];
foreach ($cluster->seeds() as $addr) {
    $pids[] = $cluster->node($addr)->pid();
}
$seeds = $cluster->seeds();

// The same keys for every variant ("lock:" is RedisLock's prefix), so the
// cluster variants spread over the masters alike.
$resources = [];
$keys = [];
$perMaster = [];
for ($n = 0; $n < $names; $n++) {
    $resources[$n] = "bench-cluster-$n";
    $keys[$n] = "lock:bench-cluster-$n";
    $m = $cluster->masterFor($keys[$n]);
    $perMaster[$m] = ($perMaster[$m] ?? 0) + 1;
}
ksort($perMaster);

/** @var array<string, Closure(int): void> name => one lock + unlock cycle of resource $i % $names */
$variants = [];
$lockUnlock = function (RedisLock $l) use ($resources, $names): Closure {
    return function (int $i) use ($l, $resources, $names): void {
        $res = $resources[$i % $names];
        $t = $l->lock($res, 10000);
        if ($t === null) {
            throw new RuntimeException("$res: lock not acquired");
        }
        $l->unlock($res, $t);
    };
};
$userland = function (Redis|RedisCluster $r) use ($keys, $names, $release): Closure {
    return function (int $i) use ($r, $keys, $names, $release): void {
        $key = $keys[$i % $names];
        $t = bin2hex(random_bytes(16));
        if ($r->set($key, $t, ['nx', 'px' => 10000]) !== true) {
            throw new RuntimeException("$key: lock not acquired");
        }
        $r->eval($release, [$key, $t], 1);
    };
};
$variants['redislock RedisLock, cluster'] = $lockUnlock(new RedisLock(['cluster' => $seeds]));
$variants['redislock RedisLock, standalone'] = $lockUnlock(new RedisLock($standalone->addr()));
$base = 'redislock RedisLock, standalone';
if (class_exists('RedisCluster')) {
    $variants['phpredis RedisCluster, userland'] = $userland(new RedisCluster(null, $seeds, 1.0, 1.0));
    $r = new Redis();
    $r->connect($standalone->host(), $standalone->port(), 1.0);
    $variants['phpredis Redis, standalone, userland'] = $userland($r);
} else {
    fwrite(STDERR, "cluster: phpredis not loaded, its variants left out\n");
}

// Warm up: connections to every master open, slot maps loaded, scripts cached.
foreach ($variants as $f) {
    for ($i = 0; $i < 2 * $names; $i++) {
        $f($i);
    }
}
$before = RedisLock::stats();

// This process's CPU time (user + system), in microseconds: what the client
// itself spends on a cycle, apart from waiting for the servers (which share
// the machine's cores with it and with each other).
$cpu = function (): float {
    $u = getrusage();
    return $u['ru_utime.tv_sec'] * 1e6 + $u['ru_utime.tv_usec'] + $u['ru_stime.tv_sec'] * 1e6 + $u['ru_stime.tv_usec'];
};
$samples = [];
$cpuSamples = [];
for ($round = 0; $round < $rounds; $round++) {
    foreach ($variants as $name => $f) {
        $c0 = $cpu();
        $start = hrtime(true);
        for ($i = 0; $i < $cycles; $i++) {
            $f($i);
        }
        $samples[$name][] = (hrtime(true) - $start) / 1e3 / $cycles;
        $cpuSamples[$name][] = ($cpu() - $c0) / $cycles;
    }
}
$after = RedisLock::stats();

$us = [];
$spread = [];
$cpuUs = [];
foreach ($samples as $name => $xs) {
    sort($xs);
    $us[$name] = $xs[intdiv(count($xs), 2)];
    $spread[$name] = ($xs[count($xs) - 1] - $xs[0]) / $us[$name] * 100;
    $cs = $cpuSamples[$name];
    sort($cs);
    $cpuUs[$name] = $cs[intdiv(count($cs), 2)];
}

echo "## lock + unlock cycle, Redis Cluster (3 masters + 3 replicas) against standalone, loopback\n";
printf("## %d rounds x %d cycles, median round; %d resources over the masters: %s\n", $rounds, $cycles, $names,
    implode(', ', array_map(fn($m, $k) => "$m $k", array_keys($perMaster), $perMaster)));
printf("%-38s %10s %14s %9s %14s %14s\n", 'variant', 'us/cycle', 'x standalone', 'spread', 'client CPU us', 'x standalone');
foreach ($us as $name => $m) {
    printf("%-38s %10.1f %14.2f %8.1f%% %14.1f %14.2f\n", $name, $m, $m / $us[$base], $spread[$name], $cpuUs[$name],
        $cpuUs[$name] / $cpuUs[$base]);
}
echo "(x standalone: against redislock RedisLock on the standalone server; spread: (slowest - fastest round) / median;\n",
     " client CPU: this PHP process's user + system time per cycle, the client's own cost without the wait for servers)\n";

$ratio = $us['redislock RedisLock, cluster'] / $us[$base];
printf("target: cluster within 5%% of standalone (redislock cluster / standalone) %6.3f (want <= 1.05) %s\n",
    $ratio, $ratio <= 1.05 ? 'met' : 'NOT met');
$cpuRatio = $cpuUs['redislock RedisLock, cluster'] / $cpuUs[$base];
printf("target: client CPU per cycle, cluster within 5%% of standalone          %6.3f (want <= 1.05) %s\n",
    $cpuRatio, $cpuRatio <= 1.05 ? 'met' : 'NOT met');
if (isset($us['phpredis RedisCluster, userland'])) {
    printf("phpredis RedisCluster userland / redislock RedisLock cluster: %.2f\n",
        $us['phpredis RedisCluster, userland'] / $us['redislock RedisLock, cluster']);
}
printf("redislock during the timed rounds: %d cluster redirects, %d slot map refreshes\n",
    $after['cluster_redirects'] - $before['cluster_redirects'],
    $after['cluster_map_refreshes'] - $before['cluster_map_refreshes']);

// Stop every redis-server started here (by pid, through the helpers) and
// check that none is left.
$variants = [];
$lockUnlock = $userland = $r = null;
$cluster->stop();
$standalone->stop();
unset($cluster, $standalone);
$left = array_filter($pids, fn($p) => is_dir("/proc/$p"));
if ($left) {
    fwrite(STDERR, 'cluster: redis-server still running, pids ' . implode(' ', $left) . "\n");
    exit(1);
}
fwrite(STDERR, 'cluster: redis-server pids ' . implode(' ', $pids) . " started and stopped\n");
