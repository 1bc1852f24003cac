<?php

/** @generate-class-entries */

/** Redis or network trouble. */
class RedisLockException extends RuntimeException {}

/** A node unreachable, timed out, or refusing AUTH. */
class RedisLockConnectionException extends RedisLockException {}

/** synchronized(): the lock was not had within the wait. */
class RedisLockTimeoutException extends RedisLockException {}

/** lock() or lockMany() with a wait: waiting would close a cycle (it waits, through other waiters, for itself). */
class RedisLockDeadlockException extends RedisLockException {}

/** Option on_lost 'throw': a lock this code held is lost (its validity ran out, the node no longer holds it, or no quorum does). */
class RedisLockLostException extends RedisLockException {}

/**
 * @strict-properties
 * @not-serializable
 */
final class RedisLock
{
    /**
     * once(): not woken within the wait; nothing ran here
     * @var int
     */
    public const ONCE_TIMED_OUT = 0;
    /**
     * once(): the rebuild ran here
     * @var int
     */
    public const ONCE_RAN = 1;
    /**
     * once(): another caller's rebuild ended while this one waited
     * @var int
     */
    public const ONCE_WAITED = 2;
    /**
     * once(): the longest string result of a rebuild handed to its waiters (bytes)
     * @var int
     */
    public const ONCE_VALUE_MAX = 8192;

    public function __construct(#[\SensitiveParameter] Redis|RedisCluster|string|array $server = '127.0.0.1:6379', #[\SensitiveParameter] array $options = []) {}

    /** Takes $resource for $timeout seconds, one try. */
    public function acquireLock(string $resource, int $timeout = 10): bool {}

    /** Releases $resource if this object holds it. */
    public function releaseLock(string $resource): bool {}

    /** Takes $resource for $ttl ms, waiting up to $wait s (woken at release); the token ($token when given: the caller's owner name), or null. */
    public function lock(string $resource, int $ttl, float $wait = 0.0, ?string $token = null): ?string {}

    /** A shared (read) lock on $resource for $ttl ms, waiting up to $wait s: any number of shared holders, never with a lock(); $token as lock()'s. */
    public function lockShared(string $resource, int $ttl, float $wait = 0.0, ?string $token = null): ?string {}

    /** One of $limit permits of the semaphore $resource for $ttl ms, waiting up to $wait s; released by unlock(). */
    public function acquirePermit(string $resource, int $limit, int $ttl, float $wait = 0.0): ?string {}

    public function unlock(string $resource, string $token): bool {}

    /**
     * Takes every one of $resources for $ttl ms, or none, waiting up to $wait s (woken when the resource it
     * waits for is released); one token for all (each is then a lock of its own). Null when not had.
     * @param array $resources a list of resource names
     */
    public function lockMany(array $resources, int $ttl, float $wait = 0.0, ?string $token = null): ?string {}

    /**
     * Releases each of $resources that $token holds; true when every one was.
     * @param array $resources a list of resource names
     */
    public function unlockMany(array $resources, string $token): bool {}

    public function extend(string $resource, string $token, int $ttl): bool {}

    /** Runs $callback($token) holding $resource; releases also when it throws. */
    public function synchronized(string $resource, callable $callback, int $ttl = 10000, float $wait = 10.0): mixed {}

    /**
     * Stampede guard: the first caller takes $resource and runs $rebuild($token); callers that come meanwhile
     * wait up to $wait s and are all woken when it returns, without taking the lock. ONCE_RAN: it ran here;
     * ONCE_WAITED: another caller's ran to its end; ONCE_TIMED_OUT (0): neither within $wait. If $rebuild throws
     * (or the process dies), one waiter takes over and runs its own. $value: what $rebuild returned; a waiter
     * gets it when it was a string of at most ONCE_VALUE_MAX bytes (it comes with the wake), else null.
     */
    public function once(string $resource, callable $rebuild, int $ttl = 10000, float $wait = 10.0, mixed &$value = null): int {}

    /** ms of validity left of a lock this object holds on $resource, else 0. */
    public function getValidity(string $resource): int {}

    /** With option "fencing": the number of this object's acquisition of $resource, larger than every earlier one's; else null. */
    public function fencingToken(string $resource): ?int {}

    /** Whether this object still holds $resource: taken, not released, not expired, not lost by the watchdog. */
    public function isHeld(string $resource): bool {}

    /** Asks Redis (a quorum for RedLock) whether $token holds $resource now, of any kind. */
    public function holds(string $resource, string $token): bool {}

    /** Asks Redis (a quorum for RedLock) whether anyone holds $resource now: a lock, a shared lock or a permit. */
    public function isLocked(string $resource): bool {}

    /**
     * What an operator sees of $resource on its node, read-only: kind ("free", "lock", "shared", "semaphore",
     * "other"), live holders, ttl (ms, null: none), live waiters, fence (the counter, null: none), and the node.
     */
    public function inspect(string $resource): array {}

    /**
     * The resources whose keys match $pattern (a SCAN glob, after the prefix), sorted, at most $limit: found by SCAN
     * on the node (every master of a Cluster; every node of a RedLock), never KEYS.
     */
    public function locks(string $pattern = '*', int $limit = 1000): array {}

    /**
     * Blocks until a release of $resource wakes a waiter (the waiters' own wake streams), at most $timeout s: true
     * when one did. Releases with nobody waiting and acquisitions wake nothing: inspect() again when it returns.
     */
    public function watch(string $resource, float $timeout): bool {}

    /** Releases $resource whoever holds it (every holder of a shared lock or semaphore) and wakes the next waiter. */
    public function forceUnlock(string $resource): bool {}

    /** This process's counters and pooled connections (both classes), as phpinfo() shows them. */
    public static function stats(): array {}

    /**
     * The pool's metrics in the Prometheus text format: every php-fpm worker's (kept in memory the master
     * shares with its workers), this process's alone in the CLI.
     */
    public static function metrics(): string {}
}

/**
 * @strict-properties
 * @not-serializable
 */
final class RedLock
{
    /**
     * once(): not woken within the wait; nothing ran here
     * @var int
     */
    public const ONCE_TIMED_OUT = 0;
    /**
     * once(): the rebuild ran here
     * @var int
     */
    public const ONCE_RAN = 1;
    /**
     * once(): another caller's rebuild ended while this one waited
     * @var int
     */
    public const ONCE_WAITED = 2;
    /**
     * once(): the longest string result of a rebuild handed to its waiters (bytes)
     * @var int
     */
    public const ONCE_VALUE_MAX = 8192;

    /** @param array $servers a list of RedisLock's server forms */
    public function __construct(#[\SensitiveParameter] array $servers, int $retryDelay = 200, int $retryCount = 3, #[\SensitiveParameter] array $options = []) {}

    /** Takes $resource for $ttl ms on a quorum; null $wait: retryCount tries, else waits up to $wait s. */
    public function lock(string $resource, int $ttl, ?float $wait = null, ?string $token = null): ?string {}

    /** A shared (read) lock on a quorum, waiting up to $wait s: any number of shared holders, never with a lock(); $token as lock()'s. */
    public function lockShared(string $resource, int $ttl, float $wait = 0.0, ?string $token = null): ?string {}

    public function unlock(string $resource, string $token): bool {}

    /**
     * Takes every one of $resources for $ttl ms, or none, waiting up to $wait s (woken when the resource it
     * waits for is released); one token for all (each is then a lock of its own). Null when not had.
     * @param array $resources a list of resource names
     */
    public function lockMany(array $resources, int $ttl, float $wait = 0.0, ?string $token = null): ?string {}

    /**
     * Releases each of $resources that $token holds; true when every one was.
     * @param array $resources a list of resource names
     */
    public function unlockMany(array $resources, string $token): bool {}

    public function extend(string $resource, string $token, int $ttl): bool {}

    /** Runs $callback($token) holding $resource; releases also when it throws. */
    public function synchronized(string $resource, callable $callback, int $ttl = 10000, float $wait = 10.0): mixed {}

    /**
     * Stampede guard: the first caller takes $resource and runs $rebuild($token); callers that come meanwhile
     * wait up to $wait s and are all woken when it returns, without taking the lock. ONCE_RAN: it ran here;
     * ONCE_WAITED: another caller's ran to its end; ONCE_TIMED_OUT (0): neither within $wait. If $rebuild throws
     * (or the process dies), one waiter takes over and runs its own. $value: what $rebuild returned; a waiter
     * gets it when it was a string of at most ONCE_VALUE_MAX bytes (it comes with the wake), else null.
     */
    public function once(string $resource, callable $rebuild, int $ttl = 10000, float $wait = 10.0, mixed &$value = null): int {}

    /** ms of validity left of a lock this object holds on $resource, else 0. */
    public function getValidity(string $resource): int {}

    /** With option "fencing": the number of this object's acquisition of $resource, larger than every earlier one's; else null. */
    public function fencingToken(string $resource): ?int {}

    /** Whether this object still holds $resource: taken, not released, not expired, not lost by the watchdog. */
    public function isHeld(string $resource): bool {}

    /** Asks Redis (a quorum for RedLock) whether $token holds $resource now, of any kind. */
    public function holds(string $resource, string $token): bool {}

    /** Asks Redis (a quorum for RedLock) whether anyone holds $resource now: a lock, a shared lock or a permit. */
    public function isLocked(string $resource): bool {}

    /** What an operator sees of $resource on each node ("nodes": host:port => its state, or its error), read-only. */
    public function inspect(string $resource): array {}

    /** The resources whose keys match $pattern on any node (SCAN on each, never KEYS), sorted, at most $limit. */
    public function locks(string $pattern = '*', int $limit = 1000): array {}

    /**
     * Blocks until a release of $resource wakes a waiter (the waiters' own wake streams), at most $timeout s: true
     * when one did. Releases with nobody waiting and acquisitions wake nothing: inspect() again when it returns.
     */
    public function watch(string $resource, float $timeout): bool {}

    /** Releases $resource whoever holds it (every holder of a shared lock or semaphore) and wakes the next waiter. */
    public function forceUnlock(string $resource): bool {}
}
