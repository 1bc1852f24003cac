<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Symfony;

use RedisLock;
use RedisLock\Bridge\Lockers;
use RedLock;
use Symfony\Component\Lock\BlockingSharedLockStoreInterface;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidArgumentException;
use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\SharedLockStoreInterface;

/**
 * A Symfony Lock store on the redislock extension: RedisLock (one node) or
 * RedLock (a quorum, asked in parallel). Blocking acquisitions wait in the
 * extension and are woken by the release, not by polling; read locks are
 * the extension's shared locks (promotion and demotion in one script).
 *
 * The Key carries its owner token (its state), so a serialized Key goes on
 * in another process. The lock object must serve many Keys: build it with
 * 'reentrant' => false (and 'prefix' => '' for the keys of Symfony's own
 * RedisStore, which fromServers() gives), or let fromServers() build it.
 */
final class RedisLockStore implements BlockingStoreInterface, SharedLockStoreInterface, BlockingSharedLockStoreInterface
{
    /** The prefix of Symfony's RedisStore keys: none, the resource name is the key. */
    public const SYMFONY_PREFIX = '';

    /** RedLock's default drift factor: a lock's validity is its TTL less this share and 2 ms. */
    private const REDLOCK_DRIFT_FACTOR = 0.01;

    /**
     * @param float $initialTtl seconds a save() holds a lock before refresh() (putOffExpiration) must extend it
     * @param float $maxWait    seconds waitAndSave() waits at most (the extension also stops at max_execution_time)
     */
    public function __construct(
        private readonly RedisLock|RedLock $locker,
        private readonly float $initialTtl = 300.0,
        private readonly float $maxWait = 86400.0,
    ) {
        if (!($initialTtl > 0) || !is_finite($initialTtl)) {
            throw new InvalidTtlException(
                sprintf('"%s()" expects a strictly positive TTL, got %s.', __METHOD__, Lockers::show($initialTtl))
            );
        }
        if (!($maxWait >= 0 && $maxWait <= 86400)) {
            throw new InvalidArgumentException(sprintf(
                '"%s()" expects a wait between 0 and 86400 seconds, got %s.',
                __METHOD__,
                Lockers::show($maxWait)
            ));
        }
    }

    /**
     * The store on $servers, with Symfony's key names: a resource's key is
     * its name, as Symfony's own RedisStore writes it ('prefix' => '' unless
     * $options name one), so during a rolling switch both stores exclude
     * each other: each finds the other's lock held.
     *
     * @param string|array<mixed>|\Redis $servers one server, or a list of them for RedLock
     * @param array<string, mixed>       $options the extension's options
     */
    public static function fromServers(
        #[\SensitiveParameter] string|array|\Redis $servers,
        #[\SensitiveParameter] array $options = [],
        float $initialTtl = 300.0,
    ): self {
        if (!isset($options['prefix'])) {
            $options['prefix'] = self::symfonyPrefix($servers);
        }
        return new self(Lockers::create($servers, $options), $initialTtl);
    }

    /**
     * The prefix Symfony's RedisStore keys have on these servers: a \Redis's
     * OPT_PREFIX, which phpredis puts in front of its keys, else none. One
     * prefix serves every node: servers whose keys differ are refused.
     */
    private static function symfonyPrefix(#[\SensitiveParameter] string|array|\Redis $servers): string
    {
        $prefixes = array_unique(array_map(
            static fn ($server) => $server instanceof \Redis
                ? (string) $server->getOption(\Redis::OPT_PREFIX)
                : self::SYMFONY_PREFIX,
            is_array($servers) && array_is_list($servers) ? $servers : [$servers],
        ));
        if (count($prefixes) > 1) {
            throw new InvalidArgumentException(
                'the servers of $servers would have keys of different prefixes in Symfony\'s'
                . ' RedisStore (a \\Redis\'s OPT_PREFIX): give the same to all, or the option "prefix"'
            );
        }
        return $prefixes === [] ? self::SYMFONY_PREFIX : reset($prefixes);
    }

    public function save(Key $key): void
    {
        $this->take($key, false, 0.0);
    }

    public function waitAndSave(Key $key): void
    {
        $this->take($key, false, $this->maxWait);
    }

    public function saveRead(Key $key): void
    {
        $this->take($key, true, 0.0);
    }

    public function waitAndSaveRead(Key $key): void
    {
        $this->take($key, true, $this->maxWait);
    }

    public function putOffExpiration(Key $key, float $ttl): void
    {
        $token = $this->tokenOf($key);
        $key->reduceLifetime($ttl);
        if ($token === null) {
            throw new LockConflictedException(sprintf('The "%s" lock was never saved by this store.', $key));
        }
        $this->refuseExpired($key); /* no extension for a lock that cannot be trusted any more */
        try {
            $extended = $this->locker->extend($this->resource($key), $token, Lockers::ms($ttl));
        } catch (\RedisLockException $e) {
            $this->refuseExpired($key, false, $e); /* nodes that did not answer in time: expired meanwhile? */
            throw $e;
        }
        if (!$extended) {
            /* a TTL that ended before the reply came, or one too short for
             * RedLock (which takes the drift off: 1% and 2 ms), is an
             * expiry, not another holder */
            $this->refuseExpired($key, $this->locker instanceof RedLock
                && ($key->getRemainingLifetime() ?? INF) * 1000 <= Lockers::ms($ttl) * self::REDLOCK_DRIFT_FACTOR + 2);
            throw new LockConflictedException(sprintf('The "%s" lock is not held any more.', $key));
        }
        $this->refuseExpired($key);
    }

    public function delete(Key $key): void
    {
        $token = $this->tokenOf($key);
        if ($token !== null) {
            $this->locker->unlock($this->resource($key), $token);
        }
    }

    public function exists(Key $key): bool
    {
        $token = $this->tokenOf($key);
        return $token !== null && $this->locker->holds($this->resource($key), $token);
    }

    private function take(Key $key, bool $shared, float $wait): void
    {
        $key->reduceLifetime($this->initialTtl);
        $this->refuseExpired($key);
        $token = $this->tokenOf($key) ?? Lockers::token();
        $ttl = Lockers::ms($key->getRemainingLifetime() ?? $this->initialTtl);
        $resource = $this->resource($key);
        $got = $shared
            ? $this->locker->lockShared($resource, $ttl, $wait, $token)
            : $this->locker->lock($resource, $ttl, $wait, $token);
        if ($got === null) {
            throw new LockConflictedException(sprintf('The "%s" lock is held by another owner.', $key));
        }
        $key->setState(__CLASS__, $token);
        $this->refuseExpired($key);
    }

    /** An expired Key ($expired: one known to be): its lock (if any) is let go and LockExpiredException thrown. */
    private function refuseExpired(Key $key, bool $expired = false, ?\Throwable $previous = null): void
    {
        if (!$expired && !$key->isExpired()) {
            return;
        }
        try {
            $this->delete($key);
        } catch (\Exception) {
            /* the expiry is what the caller must hear about */
        }
        throw new LockExpiredException(sprintf('Failed to store the "%s" lock: its TTL ran out.', $key), 0, $previous);
    }

    private function tokenOf(Key $key): ?string
    {
        return $key->hasState(__CLASS__) ? $key->getState(__CLASS__) : null;
    }

    private function resource(Key $key): string
    {
        $resource = (string)$key;
        if ($resource === '') {
            throw new InvalidArgumentException('A lock\'s resource name must not be empty.');
        }
        return $resource;
    }
}
