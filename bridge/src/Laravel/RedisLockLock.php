<?php
declare(strict_types=1);

namespace RedisLock\Bridge\Laravel;

use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockTimeoutException;
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
     * @throws \ValueError an owner the extension cannot take as a token
     */
    public function __construct(
        private readonly RedisLock|RedLock $locker,
        string $name,
        int|float $seconds,
        ?string $owner,
        private readonly int $ttlMs,
    ) {
        parent::__construct($name, $seconds, $owner);
        self::checkOwner($this->owner);
    }

    public function acquire()
    {
        return $this->locker->lock($this->name, $this->ttlMs, 0.0, $this->owner) !== null;
    }

    /**
     * One wait in the extension, woken at the holder's release (or just
     * after its TTL ends); betweenBlockedAttemptsSleepFor() has no effect.
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

    /** The owner when it holds the lock now (Redis says so), else ''. */
    protected function getCurrentOwner()
    {
        return $this->isOwnedByCurrentProcess() ? $this->owner : '';
    }

    /** One question to Redis (a quorum for RedLock); the key's layout stays the extension's. */
    protected function isOwnedByCurrentProcess()
    {
        return $this->locker->holds($this->name, $this->owner);
    }

    /** The extension's TTL in Redis, ms (for a lock without expiry: the watchdog's TTL). */
    public function ttlMs(): int
    {
        return $this->ttlMs;
    }

    private static function checkOwner(string $owner): void
    {
        $bytes = strlen($owner);
        if ($bytes === 0 || $bytes > self::MAX_OWNER_BYTES || str_contains($owner, "\0")) {
            throw new \ValueError(sprintf(
                'a redislock lock owner must be 1 to %d bytes without a NUL byte; this one has %d bytes%s',
                self::MAX_OWNER_BYTES,
                $bytes,
                str_contains($owner, "\0") ? ' and a NUL byte' : '',
            ));
        }
    }
}
