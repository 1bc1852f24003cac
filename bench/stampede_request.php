<?php
/*
 * The request php-fpm serves in the stampede benchmark (bench/stampede.php):
 * read one cache key; on a miss take a lock (blocking), read it again (another
 * request may have rebuilt it meanwhile), and only if it is still missing
 * "rebuild" it (sleep ?rebuild_ms=, INCR a rebuild counter, SET the value with
 * a TTL), then release. The cache reads and the rebuild are the same phpredis
 * pconnect calls for every variant; only the lock differs (?variant=):
 *   none                no lock at all (the stampede itself: K rebuilds)
 *   ext                 RedisLock::lock() with a wait (woken at release)
 *   symfony-bridge      symfony/lock LockFactory on RedisLock\Bridge\Symfony\RedisLockStore
 *   laravel-bridge      RedisLock\Bridge\Laravel\RedisLockStore::lock()->block()
 *   symfony-redisstore  symfony/lock LockFactory on its RedisStore (phpredis; polls ~100 ms)
 *   laravel-redis       Illuminate\Cache\PhpRedisLock::block() (phpredis; polls 250 ms)
 *   ext-once            RedisLock::once(): one request rebuilds, the rest wait and are all
 *                       woken by its release, which hands them the rebuilt value (no
 *                       lock taken by them, no cache read after the wake)
 *   ext-swr             stale while revalidate: the round starts with a stale value; one
 *                       request rebuilds it under once() with no wait, the rest serve the
 *                       stale value at once (OUTCOME stale)
 * Other parameters: ?server=HOST:PORT, ?key= (the cache key; the counter is
 * KEY:rebuilds, the lock's name KEY:lock), ?wait= seconds to wait for the lock.
 * ?probe=1 only answers "ok" when the variant can run here, else "skip: why".
 * Answers "ok OUTCOME LOCK_MS": OUTCOME is hit (first read hit), waited (lock
 * taken, then the value was there) or rebuilt; LOCK_MS the time to get the
 * lock (0 for a hit). Anything else is a failure with its reason.
 */
require_once __DIR__ . '/stampede_locks.php';

$variant = $_GET['variant'] ?? 'none';
[$host, $port] = explode(':', $_GET['server'] ?? '127.0.0.1:6379');
$key = $_GET['key'] ?? 'stampede';
$rebuildMs = (int)($_GET['rebuild_ms'] ?? 50);
$wait = (float)($_GET['wait'] ?? 5);
if (isset($_GET['probe'])) {
    $missing = stampede_missing($variant);
    echo $missing === null ? 'ok' : "skip: $missing";
    return;
}

try {
    $redis = new Redis();
    $redis->pconnect($host, (int)$port, 1.0);
    if ($variant === 'ext-once' || $variant === 'ext-swr') {
        echo stampede_once($redis, "$host:$port", $key, $rebuildMs, $variant === 'ext-swr' ? 0.0 : $wait);
        return;
    }
    if ($redis->get($key) !== false) {
        echo 'ok hit 0';
        return;
    }
    $t = hrtime(true);
    $release = stampede_lock($variant, $redis, "$host:$port", "$key:lock", $wait);
    $lockMs = (hrtime(true) - $t) / 1e6;
    try {
        if ($redis->get($key) !== false) {
            $outcome = 'waited';
        } else {
            usleep($rebuildMs * 1000);
            $redis->incr("$key:rebuilds");
            $redis->set($key, str_repeat('v', 100), ['ex' => 60]);
            $outcome = 'rebuilt';
        }
    } finally {
        $release();
    }
    printf('ok %s %.3f', $outcome, $lockMs);
} catch (Throwable $e) {
    echo 'failed ', get_class($e), ': ', $e->getMessage();
}

/**
 * The guard's request: a value of "stale" is there but due for a rebuild
 * (ext-swr's rounds start with it). The rebuild looks at the value again
 * first (a request that came after the last rebuild ended takes the lock).
 */
function stampede_once(Redis $redis, string $server, string $key, int $rebuildMs, float $wait): string
{
    $value = $redis->get($key);
    if ($value !== false && $value !== 'stale') {
        return 'ok hit 0';
    }
    $outcome = 'waited';
    $start = hrtime(true);
    $lockMs = null;
    $r = (new RedisLock($server))->once("$key:lock", function () use ($redis, $key, $rebuildMs, $start, &$outcome, &$lockMs) {
        $lockMs = (hrtime(true) - $start) / 1e6;
        $now = $redis->get($key);
        if ($now !== false && $now !== 'stale') {
            return $now; // rebuilt meanwhile
        }
        usleep($rebuildMs * 1000);
        $value = str_repeat('v', 100);
        $redis->incr("$key:rebuilds");
        $redis->set($key, $value, ['ex' => 60]);
        $outcome = 'rebuilt';
        return $value; // handed to the waiters with their wake
    }, 10000, $wait, $page);
    $lockMs ??= (hrtime(true) - $start) / 1e6; // a waiter: the time to its wake
    if ($r === RedisLock::ONCE_WAITED) {
        // the value came with the wake; without it (too large, or the rebuild
        // stored nothing), the page reads the cache as it would anyway
        $page ??= $redis->get($key);
    } elseif ($r === RedisLock::ONCE_TIMED_OUT) {
        if ($value !== 'stale') {
            return "failed: not woken within $wait s";
        }
        $outcome = 'stale'; // served at once while another request rebuilds
    }
    return sprintf('ok %s %.3f', $outcome, $lockMs);
}
