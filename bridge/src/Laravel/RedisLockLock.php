<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Laravel;

use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockTimeoutException;
use RedisLock\Bridge\Lockers;
use RedisLock;
use RedLock;

/**
 * A Laravel lock on the redislock extension. The owner string is the lock's
 * token in Redis, so any process that knows it (restoreLock(), a queued job)
 * can release it. block() waits in one call and is woken by the release
 * instead of polling every 250 ms.
 */
class RedisLockLock extends Lock
{
    /** The extension's limit on a token: 1 to 256 bytes, no NUL byte. */
    public const MAX_OWNER_BYTES = 256;

    /**
     * @param RedisLock|RedLock $locker built with 'reentrant' => false (one object, many owners);
     *        for a lock without expiry ($seconds <= 0) also with 'auto_extend' => true
     * @param int $ttlMs the TTL in Redis: $seconds in ms, or the watchdog's TTL when $seconds <= 0
     * @param string|null $connectionName the Redis connection of config/database.php $locker is on, if any
     * @throws \ValueError an owner the extension cannot take as a token
     */
    public function __construct(
        private readonly RedisLock|RedLock $locker,
        string $name,
        int|float $seconds,
        ?string $owner,
        private readonly int $ttlMs,
        private readonly ?string $connectionName = null,
    ) {
        parent::__construct($name, $seconds, $owner);
        self::checkOwner($this->owner);
    }

    /** False while the lock is held, also by this owner (SET NX, as Laravel's Redis lock). */
    public function acquire()
    {
        return $this->locker->lock($this->name, $this->ttlMs, 0.0, $this->owner) !== null;
    }

    /**
     * One wait in the extension, woken at the holder's release (or just
     * after its TTL ends); betweenBlockedAttemptsSleepFor() has no effect.
     * A lock this owner holds already is waited for too, as Laravel's own.
     */
    public function block($seconds, $callback = null)
    {
        $wait = max(0.0, (float) $seconds);
        if ($this->locker->lock($this->name, $this->ttlMs, $wait, $this->owner) === null) {
            throw new LockTimeoutException();
        }
        if (is_callable($callback)) {
            try {
                return $callback();
            } finally {
                $this->release();
            }
        }
        return true;
    }

    public function release()
    {
        return $this->locker->unlock($this->name, $this->owner);
    }

    public function forceRelease()
    {
        $this->locker->forceUnlock($this->name);
    }

    /**
     * Extends the lock's TTL in Redis to $seconds (null: the lock's own
     * seconds), if this owner still holds it; false when it was lost.
     * Laravel 12+ declares it; it is there for older versions too. Every
     * lock of the extension has a TTL in Redis, so $seconds <= 0 ("no
     * expiry") sets the lock's TTL in Redis again (ttlMs()), not none.
     *
     * @throws \InvalidArgumentException $seconds neither null nor a number, or out of range
     */
    public function refresh($seconds = null)
    {
        if ($seconds !== null && (!is_numeric($seconds) || is_nan((float) $seconds))) {
            throw new \InvalidArgumentException(
                'refresh() takes a number of seconds or null, not ' . get_debug_type($seconds)
            );
        }
        $seconds = $seconds === null ? $this->seconds : $seconds + 0;
        $ttlMs = $seconds > 0 ? Lockers::ms($seconds) : $this->ttlMs;
        return $this->locker->extend($this->name, $this->owner, $ttlMs);
    }

    /** The owner when it holds the lock now (Redis says so), else ''. */
    protected function getCurrentOwner()
    {
        return $this->isOwnedByCurrentProcess() ? $this->owner : '';
    }

    /**
     * One question to Redis (a quorum for RedLock); the key's layout stays
     * the extension's. Public as in Laravel 10+ (protected in 8).
     */
    public function isOwnedByCurrentProcess()
    {
        return $this->locker->holds($this->name, $this->owner);
    }

    /** Whether $owner holds the lock now (Laravel 11+): one question to Redis. */
    public function isOwnedBy($owner)
    {
        if ($owner === null) {
            return !$this->isLocked();
        }
        $owner = (string) $owner;
        return self::ownerError($owner) === null && $this->locker->holds($this->name, $owner);
    }

    /** Laravel 13's isLocked(): whether anyone holds the lock now, asked of Redis (a quorum for RedLock). */
    public function isLocked(): bool
    {
        return $this->locker->isLocked($this->name);
    }

    /**
     * The name of the Redis connection (config/database.php) the lock is
     * on, as Laravel's RedisLock has it; null for a store given 'servers'.
     */
    public function getConnectionName()
    {
        return $this->connectionName;
    }

    /** The extension's TTL in Redis, ms (for a lock without expiry: the watchdog's TTL). */
    public function ttlMs(): int
    {
        return $this->ttlMs;
    }

    private static function checkOwner(string $owner): void
    {
        $error = self::ownerError($owner);
        if ($error !== null) {
            throw new \ValueError($error);
        }
    }

    /** Why the extension cannot take $owner as a token (the owner itself not shown), or null. */
    private static function ownerError(string $owner): ?string
    {
        $bytes = strlen($owner);
        if ($bytes > 0 && $bytes <= self::MAX_OWNER_BYTES && !str_contains($owner, "\0")) {
            return null;
        }
        return sprintf(
            'a redislock lock owner must be 1 to %d bytes without a NUL byte; this one has %d bytes%s',
            self::MAX_OWNER_BYTES,
            $bytes,
            str_contains($owner, "\0") ? ' and a NUL byte' : '',
        );
    }
}
