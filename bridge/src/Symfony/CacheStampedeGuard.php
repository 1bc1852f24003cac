<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Symfony;

use Psr\Log\LoggerInterface;
use RedisLock;
use RedisLock\Bridge\Lockers;
use RedLock;
use Symfony\Contracts\Cache\CacheInterface;
use Symfony\Contracts\Cache\ItemInterface;

/**
 * Cache stampede protection for Symfony's cache pools across hosts: a
 * callback wrapper (the pools' setCallbackWrapper()) in place of their
 * LockRegistry, whose file locks guard one host only.
 *
 *     $pool->setCallbackWrapper(CacheStampedeGuard::fromServers('redis://redis.internal:6379'));
 *     $value = $pool->get('report', fn (ItemInterface $item) => build_report());   // a miss: built once
 *
 * On a miss the first request computes the item (the extension's once()),
 * saves it, and its release wakes every request that came meanwhile at
 * once; they read the saved item instead of computing it. If the
 * computation throws, its request sees the exception and one waiter
 * computes in its place. A request that waited longer than $wait, or found
 * nothing saved (a callback that set $save to false), computes the item
 * itself, as without the guard.
 *
 * Lock names are $prefix and the item's key: give pools that share item
 * keys but not their values prefixes of their own.
 */
final class CacheStampedeGuard
{
    /**
     * @param RedisLock|RedLock $locker best built with 'auto_extend' => true (fromServers() does):
     *        a computation of any length keeps its lock, a dead process's lock ends within $ttlMs
     * @param int   $ttlMs the lock's TTL while an item is computed (kept by the watchdog with auto_extend)
     * @param float $wait  seconds a request waits for another's computation
     */
    public function __construct(
        private readonly RedisLock|RedLock $locker,
        private readonly string $prefix = 'cache:',
        private readonly int $ttlMs = 10000,
        private readonly float $wait = 10.0,
    ) {
        if ($ttlMs < 1) {
            throw new \ValueError('the TTL of a computation\'s lock must be at least 1 ms');
        }
        if (!($wait >= 0 && $wait <= 86400)) {
            throw new \ValueError('the wait must be between 0 and 86400 seconds');
        }
    }

    /**
     * @param string|array<mixed>|\Redis $servers one server, or a list of them for RedLock
     * @param array<string, mixed>       $options the extension's options ('auto_extend' => true unless given)
     */
    public static function fromServers(
        #[\SensitiveParameter] string|array|\Redis $servers,
        #[\SensitiveParameter] array $options = [],
        string $prefix = 'cache:',
        int $ttlMs = 10000,
        float $wait = 10.0,
    ): self {
        return new self(Lockers::create($servers, $options + ['auto_extend' => true]), $prefix, $ttlMs, $wait);
    }

    /**
     * Whether the pool has the item now ($value gets it): a nested get()
     * of the key, which the pool does not wrap, with a callback that only
     * says the item is not there.
     */
    private static function saved(CacheInterface $pool, ItemInterface $item, mixed &$value): bool
    {
        $missing = false;
        $got = $pool->get($item->getKey(), static function (ItemInterface $i, bool &$s) use (&$missing) {
            $missing = true;
            $s = false;
            return null;
        }, 0.0);
        if (!$missing) {
            $value = $got;
        }
        return !$missing;
    }

    /** The callback wrapper: what the pool's get() calls on a miss (Symfony 7.2+ passes $beta too). */
    public function __invoke(
        callable $callback,
        ItemInterface $item,
        bool &$save,
        CacheInterface $pool,
        ?\Closure $setMetadata = null,
        ?LoggerInterface $logger = null,
        ?float $beta = null,
    ): mixed {
        $value = null;
        $computed = false;
        try {
            $outcome = $this->locker->once(
                $this->prefix . $item->getKey(),
                static function () use ($callback, $item, &$save, $pool, $setMetadata, &$value, &$computed): void {
                    /* saved by a request that came before this one got the
                     * lock (its miss came before that save) */
                    if (self::saved($pool, $item, $value)) {
                        $save = false;
                        $computed = true;
                        return;
                    }
                    $computed = true;
                    $value = $callback($item, $save);
                    if ($save) { /* saved before the release wakes the others */
                        if ($setMetadata !== null) {
                            $setMetadata($item);
                        }
                        $pool->save($item->set($value));
                        $save = false;
                    }
                },
                $this->ttlMs,
                $this->wait
            );
        } catch (\RedisLockException $e) {
            /* the lock's own trouble (Redis unreachable, no quorum) never
             * fails the cache: computed without the guard, or kept */
            $logger?->warning(
                'Stampede guard unavailable for "{key}": {error}',
                ['key' => $item->getKey(), 'error' => $e->getMessage()]
            );
            return $computed ? $value : $callback($item, $save);
        }
        if ($computed) {
            return $value;
        }
        if ($outcome === RedisLock::ONCE_WAITED && self::saved($pool, $item, $value)) {
            $save = false;
            $logger?->info('Item "{key}" computed by another request', ['key' => $item->getKey()]);
            return $value;
        }
        $logger?->info(
            $outcome === RedisLock::ONCE_WAITED
                ? 'Item "{key}" not saved by the request that computed it, computing it here'
                : 'Item "{key}" still computed elsewhere after the wait, computing it here',
            ['key' => $item->getKey()]
        );
        return $callback($item, $save);
    }
}
