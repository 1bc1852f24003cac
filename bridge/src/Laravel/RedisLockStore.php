<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Laravel;

use BadMethodCallException;
use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Cache\Store;
use RedisLock\Bridge\Lockers;
use RedisLock;
use RedLock;

/**
 * A cache store whose locks are the extension's, and whose cache calls all
 * go to another configured store (the "inner" store: redis, database,
 * file...). Laravel code that asks its cache for a lock (Cache::lock(),
 * ShouldBeUnique jobs, WithoutOverlapping, the scheduler's
 * withoutOverlapping/onOneServer) gets a RedisLockLock.
 *
 * Lock names are $lockPrefix . $name in the extension, whose own option
 * 'prefix' comes first in Redis. Built by RedisLockStoreFactory from a
 * Redis connection, that is the connection's key prefix, and the key is
 * the one Laravel's Redis store writes: "<connection prefix><cache prefix>:<name>".
 */
class RedisLockStore implements Store, LockProvider
{
    /** The TTL kept alive by the watchdog for a lock without expiry ($seconds <= 0), by default. */
    public const DEFAULT_AUTO_EXTEND_TTL_MS = 30000;

    /** The stampede guard's lock TTL (kept by the watchdog while a value is computed) and wait, by default. */
    public const DEFAULT_GUARD_TTL_MS = 10000;
    public const DEFAULT_GUARD_WAIT = 10.0;

    /**
     * @param RedisLock|RedLock $locker for locks with a TTL; built with 'reentrant' => false
     * @param RedisLock|RedLock $extendingLocker the same nodes with 'auto_extend' => true too,
     *        for locks without expiry: kept while this process (request) lives, then expiring
     * @param RedisLock|RedLock|null $guardLocker for RedisLockRepository's stampede guard: the same
     *        nodes with 'auto_extend' and 'auto_release' => true (a computation's lock is its
     *        request's); null: $extendingLocker
     * @param string|null $lockConnectionName the Redis connection of config/database.php the
     *        lockers were built from, if any (the locks' getConnectionName())
     */
    public function __construct(
        private readonly Store $inner,
        private readonly RedisLock|RedLock $locker,
        private readonly RedisLock|RedLock $extendingLocker,
        private readonly string $lockPrefix = '',
        private readonly int $autoExtendTtlMs = self::DEFAULT_AUTO_EXTEND_TTL_MS,
        private readonly RedisLock|RedLock|null $guardLocker = null,
        private readonly int $guardTtlMs = self::DEFAULT_GUARD_TTL_MS,
        private readonly float $guardWait = self::DEFAULT_GUARD_WAIT,
        private readonly ?string $lockConnectionName = null,
    ) {
        if ($autoExtendTtlMs < 1) {
            throw new \ValueError('the auto_extend TTL of locks without expiry must be at least 1 ms');
        }
        if ($guardTtlMs < 1) {
            throw new \ValueError('the stampede guard\'s lock TTL must be at least 1 ms');
        }
        if (!($guardWait >= 0 && $guardWait <= 86400)) {
            throw new \ValueError('the stampede guard\'s wait must be between 0 and 86400 seconds');
        }
    }

    /**
     * A lock for $seconds (<= 0: no expiry, as Laravel means it, but kept by
     * the watchdog with a TTL, so a dead holder's lock still expires).
     *
     * @throws \ValueError an $owner the extension cannot take as a token
     * @throws \InvalidArgumentException $seconds out of range (INF, more ms than an int holds)
     */
    public function lock($name, $seconds = 0, $owner = null)
    {
        $seconds = is_numeric($seconds) ? $seconds + 0 : 0;
        $owner = $owner === null ? null : (string) $owner;
        if ($seconds > 0) {
            return new RedisLockLock(
                $this->locker,
                $this->lockPrefix . $name,
                $seconds,
                $owner,
                Lockers::ms($seconds),
                $this->lockConnectionName
            );
        }
        return new RedisLockLock(
            $this->extendingLocker,
            $this->lockPrefix . $name,
            $seconds,
            $owner,
            $this->autoExtendTtlMs,
            $this->lockConnectionName
        );
    }

    /** A lock object for $owner's lock on $name, e.g. in the job that must release it. */
    public function restoreLock($name, $owner)
    {
        return $this->lock($name, 0, $owner);
    }

    /** The extension's object that takes the locks with a TTL. */
    public function locker(): RedisLock|RedLock
    {
        return $this->locker;
    }

    public function lockPrefix(): string
    {
        return $this->lockPrefix;
    }

    /**
     * What goes in front of the stampede guard's lock names: the lock prefix, ending in ':' (Laravel 13's cache prefix
     * has none).
     */
    public function guardPrefix(): string
    {
        return $this->lockPrefix === '' || str_ends_with($this->lockPrefix, ':')
            ? $this->lockPrefix
            : $this->lockPrefix . ':';
    }

    /** The Redis connection of config/database.php the locks go to ('lock_connection'), or null: 'servers'. */
    public function lockConnectionName(): ?string
    {
        return $this->lockConnectionName;
    }

    /** The extension's object that guards remember() and flexible() (RedisLockRepository). */
    public function guardLocker(): RedisLock|RedLock
    {
        return $this->guardLocker ?? $this->extendingLocker;
    }

    public function guardTtlMs(): int
    {
        return $this->guardTtlMs;
    }

    /** Seconds a request waits for another's computation of the same item. */
    public function guardWait(): float
    {
        return $this->guardWait;
    }

    public function innerStore(): Store
    {
        return $this->inner;
    }

    public function get($key)
    {
        return $this->inner->get($key);
    }

    public function many(array $keys)
    {
        return $this->inner->many($keys);
    }

    public function put($key, $value, $seconds)
    {
        return $this->inner->put($key, $value, $seconds);
    }

    public function putMany(array $values, $seconds)
    {
        return $this->inner->putMany($values, $seconds);
    }

    public function increment($key, $value = 1)
    {
        return $this->inner->increment($key, $value);
    }

    public function decrement($key, $value = 1)
    {
        return $this->inner->decrement($key, $value);
    }

    public function forever($key, $value)
    {
        return $this->inner->forever($key, $value);
    }

    public function forget($key)
    {
        return $this->inner->forget($key);
    }

    public function flush()
    {
        return $this->inner->flush();
    }

    public function getPrefix()
    {
        return $this->inner->getPrefix();
    }

    /** The inner store's atomic add() (Repository::add() looks for this method), else get and put. */
    public function add($key, $value, $seconds)
    {
        if (method_exists($this->inner, 'add')) {
            return $this->inner->add($key, $value, $seconds);
        }
        return $this->inner->get($key) === null && $this->inner->put($key, $value, $seconds);
    }

    /**
     * Store::touch() (Laravel 13's contract): the inner store's; an inner
     * store of an older Laravel has none, so the item is read and put again
     * with the new TTL (false when it is not cached).
     */
    public function touch($key, $seconds)
    {
        if (method_exists($this->inner, 'touch')) {
            return $this->inner->touch($key, $seconds);
        }
        $value = $this->inner->get($key);
        return $value !== null && $this->inner->put($key, $value, $seconds);
    }

    /** Cache tags, when the inner store has them (Repository::tags() looks for this method). */
    public function tags($names)
    {
        if (!method_exists($this->inner, 'tags')) {
            throw new BadMethodCallException(
                sprintf('the inner cache store (%s) does not support tags', get_class($this->inner))
            );
        }
        return $this->inner->tags(is_array($names) ? $names : func_get_args());
    }

    /**
     * The inner store's own methods (add(), touch(), setPrefix(), connection()...),
     * but not those about its locks (Laravel 13's CanFlushLocks): this store's
     * locks are the extension's, which names no lock it does not hold.
     */
    public function __call(string $method, array $arguments): mixed
    {
        if (in_array(strtolower($method), ['flushlocks', 'hasseparatelockstore'], true)) {
            throw new BadMethodCallException(
                sprintf('the redislock cache store cannot %s(): its locks are not the inner store\'s', $method)
            );
        }
        if (!method_exists($this->inner, $method) && !method_exists($this->inner, '__call')) {
            throw new BadMethodCallException(sprintf('Call to undefined method %s::%s()', static::class, $method));
        }
        return $this->inner->$method(...$arguments);
    }
}
