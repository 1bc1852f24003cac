<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Laravel;

use BadMethodCallException;
use Closure;
use Illuminate\Cache\Repository;
use RedisLock;

/**
 * The redislock store's cache repository: Laravel's, with remember(),
 * rememberForever() (and sear()) and flexible() guarded against cache
 * stampedes across hosts. On a miss the first request computes the value
 * (the extension's once()) and stores it; its release wakes every request
 * that came meanwhile at once, and they read the stored value instead of
 * computing it. If the computation throws, its request sees the exception
 * and one waiter computes in its place. A request that waited longer than
 * the store's stampede wait, or found nothing stored (a callback that
 * returned null), computes the value itself, as Laravel does.
 *
 * flexible() (Laravel 11.23+) is guarded where it computes in the request:
 * on a miss. Its refresh of a stale value already runs under this store's
 * lock, after the response.
 */
class RedisLockRepository extends Repository
{
    public function remember($key, $ttl, Closure $callback)
    {
        $value = $this->get($key);
        if (!is_null($value)) {
            return $value;
        }
        return $this->guarded($key, fn () => parent::remember($key, $ttl, $callback), fn () => $this->get($key));
    }

    public function rememberForever($key, Closure $callback)
    {
        $value = $this->get($key);
        if (!is_null($value)) {
            return $value;
        }
        return $this->guarded($key, fn () => parent::rememberForever($key, $callback), fn () => $this->get($key));
    }

    /** Laravel's flexible() (11.23+), its miss computed once. */
    public function flexible($key, $ttl, $callback, $lock = null, $alwaysDefer = false)
    {
        if (!method_exists(Repository::class, 'flexible')) {
            throw new BadMethodCallException('flexible() is Laravel 11.23\'s and later\'s, not this version\'s');
        }
        $name = self::name($key);
        /* the item and its creation time, as Laravel's flexible() stores them */
        $both = [$name, 'illuminate:cache:flexible:created:' . $name];
        $missing = fn () => in_array(null, array_values($this->many($both)), true);
        if (!$missing()) {
            return parent::flexible($key, $ttl, $callback, $lock, $alwaysDefer);
        }
        return $this->guarded(
            $name,
            fn () => parent::flexible($key, $ttl, $callback, $lock, $alwaysDefer),
            fn () => $missing() ? null : $this->get($name)
        );
    }

    /** A key as a string: Laravel 12+ takes enums for keys. */
    private static function name($key): string
    {
        return $key instanceof \BackedEnum
            ? (string) $key->value
            : ($key instanceof \UnitEnum ? $key->name : (string) $key);
    }

    /**
     * $compute (Laravel's own method) in the request that takes the guard;
     * $read in those that waited for it; $compute again where that found
     * nothing. Without the redislock store underneath: $compute. The lock's
     * own trouble (Redis unreachable, no quorum) never fails the cache call:
     * the value is computed without the guard, or kept when it was.
     */
    private function guarded($key, Closure $compute, Closure $read): mixed
    {
        $store = $this->getStore();
        if (!$store instanceof RedisLockStore) {
            return $compute();
        }
        $value = null;
        $computed = false;
        try {
            $outcome = $store->guardLocker()->once(
                $store->guardPrefix() . 'cache:' . $this->itemKey(self::name($key)),
                static function () use ($compute, &$value, &$computed): void {
                    $computed = true;
                    $value = $compute();
                },
                $store->guardTtlMs(),
                $store->guardWait()
            );
        } catch (\RedisLockException $e) {
            return $computed ? $value : $compute();
        }
        if ($computed) {
            return $value;
        }
        if ($outcome === RedisLock::ONCE_WAITED && !is_null($value = $read())) {
            return $value;
        }
        return $compute();
    }
}
