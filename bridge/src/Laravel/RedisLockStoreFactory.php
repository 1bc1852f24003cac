<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Laravel;

use Illuminate\Cache\RedisStore;
use Illuminate\Contracts\Cache\Factory as CacheFactory;
use Illuminate\Contracts\Cache\Store;
use Illuminate\Contracts\Config\Repository as Config;
use InvalidArgumentException;
use RedisLock;
use RedisLock\Bridge\Lockers;
use RedLock;

/**
 * Builds a RedisLockStore from its entry in config/cache.php:
 *
 *     'locks' => [
 *         'driver' => 'redislock',
 *         'store' => 'redis',                 // the cache store that cache calls go to
 *         'lock_connection' => 'default',     // a Redis connection of config/database.php: its server,
 *                                             // credentials and key prefix; default: the inner store's
 *                                             // when that is Laravel's Redis store
 *         'servers' => env('REDIS_URL'),      // or: 'host:port', a redis:// or valkey:// URL, a server
 *                                             // array, or a list of several for RedLock
 *         'options' => [],                    // RedisLock options ('timeout', 'password', ...)
 *         'prefix' => null,                   // lock names' prefix; default: the inner Redis store's,
 *                                             // else cache.prefix
 *         'auto_extend_ttl' => 30,            // s, TTL in Redis of locks without expiry
 *         'stampede_wait' => 10,              // s a remember() waits for another request's computation
 *         'stampede_ttl' => 10,               // s, TTL of a computation's lock (the watchdog extends it)
 *     ],
 *
 * Locks without expiry (Laravel's lock($name) or lock($name, 0)) get a TTL
 * in Redis all the same, auto_extend_ttl, which the extension's watchdog
 * thread extends every third of it while the holder lives: for PHP-FPM until
 * the request ends, for a queue worker or a command while it runs. A crashed
 * holder's lock frees itself within that TTL instead of never. A lock that
 * must outlive the request that took it (a ShouldBeUnique job without
 * uniqueFor, a lock handed to a queued job) needs explicit seconds.
 *
 * With the defaults, a lock's key is the one Laravel's own Redis store
 * writes (the connection's prefix, the cache prefix, the name) on the same
 * server, so old and new code exclude each other during a rolling switch.
 *
 * Messages name the config key at fault and never show a server or an
 * option's value: a server may be "redis://user:password@host".
 */
final class RedisLockStoreFactory
{
    public const DRIVER = 'redislock';

    /** Where the servers came from, for messages: a connection of config/database.php, or null ('servers'). */
    private ?string $serversFrom = null;

    public function __construct(private readonly CacheFactory $cache, private readonly Config $config)
    {
    }

    /**
     * The options of the locker for locks with a TTL: $options, with
     * - 'auto_release' => false unless $options says otherwise: Laravel locks
     *   belong to their owner name, not to the PHP object or request that took
     *   them. A ShouldBeUnique job's lock is taken when the job is dispatched
     *   and released by the worker that runs it (restoreLock()); the
     *   scheduler's withoutOverlapping() lock is taken by schedule:run and
     *   released by the background command when it ends. Releasing at object
     *   destruction or request end would break both.
     * - 'reentrant' => false and 'refresh_own' => false always: one object
     *   serves every owner, and a lock is not taken twice, not even by its
     *   owner (as Laravel's Redis locks: SET NX).
     * The locker of locks without expiry adds 'auto_extend' => true.
     */
    public static function lockerOptions(#[\SensitiveParameter] array $options): array
    {
        return array_merge(['auto_release' => false], $options, ['reentrant' => false, 'refresh_own' => false]);
    }

    public function make(#[\SensitiveParameter] array $storeConfig): RedisLockStore
    {
        $name = $this->storeName($storeConfig);
        $key = $name === null ? 'cache.stores.(a redislock store)' : "cache.stores.$name";
        $options = $storeConfig['options'] ?? [];
        if (!is_array($options)) {
            throw new InvalidArgumentException("$key.options must be an array of RedisLock options");
        }
        [$inner, $innerName] = $this->innerStore(
            $name === null ? $storeConfig : (array) $this->config->get($key),
            $key
        );
        $servers = $storeConfig['servers'] ?? null;
        $connection = $this->lockConnection($storeConfig, $inner, $innerName, $key);
        $guardOptions = $options;
        $this->serversFrom = $connection === null ? null : "database.redis.{$connection->name}";
        if ($connection !== null) {
            $servers = $connection->server;
            /* the store's own options first: a prefix given there */
            $options += $connection->options;
            /* the stampede guard's locks are not Laravel's: out of the cache's keys, as before */
            $guardOptions += ['prefix' => $connection->options['prefix'] . 'lock:'] + $connection->options;
        }
        $options = self::lockerOptions($options);

        return new RedisLockStore(
            $inner,
            $this->locker($servers, $options, $key),
            $this->locker($servers, ['auto_extend' => true] + $options, $key),
            $this->lockPrefix($storeConfig, $connection === null ? null : $inner, $key),
            $this->seconds($storeConfig, 'auto_extend_ttl', RedisLockStore::DEFAULT_AUTO_EXTEND_TTL_MS / 1000, $key),
            /* a computation's lock is its request's: released when it dies */
            $this->locker(
                $servers,
                ['auto_extend' => true, 'auto_release' => true] + self::lockerOptions($guardOptions),
                $key
            ),
            $this->seconds($storeConfig, 'stampede_ttl', RedisLockStore::DEFAULT_GUARD_TTL_MS / 1000, $key),
            $this->waitSeconds($storeConfig, $key),
            $connection?->name,
        );
    }

    /**
     * The Redis connection of config/database.php the locks go to: the one
     * 'lock_connection' names, else (no 'servers' given) the inner store's
     * lock connection when it is Laravel's Redis store; null: 'servers'.
     */
    private function lockConnection(
        #[\SensitiveParameter] array $storeConfig,
        Store $inner,
        string $innerName,
        string $key
    ): ?RedisConnection {
        $named = $storeConfig['lock_connection'] ?? null;
        $servers = $storeConfig['servers'] ?? null;
        $noServers = $servers === null || $servers === '' || $servers === [];
        if ($named !== null) {
            if (!is_string($named) || $named === '') {
                throw new InvalidArgumentException(
                    "$key.lock_connection must name a Redis connection of database.redis"
                );
            }
            if (!$noServers) {
                throw new InvalidArgumentException("$key: give servers or lock_connection, not both");
            }
            return RedisConnection::fromConfig($this->config, $named, "$key.lock_connection");
        }
        if (!$noServers || !$inner instanceof RedisStore) {
            return null;
        }
        /* Laravel's Redis store takes its locks on this connection (CacheManager::createRedisDriver()) */
        $innerConfig = (array) $this->config->get("cache.stores.$innerName");
        $named = $innerConfig['lock_connection'] ?? $innerConfig['connection'] ?? 'default';
        if (!is_string($named) || $named === '') {
            throw new InvalidArgumentException(
                "cache.stores.$innerName.lock_connection must name a Redis connection of database.redis"
            );
        }
        return RedisConnection::fromConfig(
            $this->config,
            $named,
            "cache.stores.$innerName.lock_connection (the inner store's)"
        );
    }

    /** @return array{Store, string} the inner store and its name in cache.stores */
    private function innerStore(#[\SensitiveParameter] array $storeConfig, string $key): array
    {
        $inner = $storeConfig['store'] ?? null;
        if (!is_string($inner) || $inner === '') {
            throw new InvalidArgumentException(
                "$key.store is missing: name the cache store that cache calls go to (e.g. 'redis')"
            );
        }
        $innerConfig = $this->config->get("cache.stores.$inner");
        if (!is_array($innerConfig)) {
            throw new InvalidArgumentException(
                "$key.store names the cache store [$inner], which is not in cache.stores"
            );
        }
        if (($innerConfig['driver'] ?? null) === self::DRIVER) {
            /* also what Laravel 10+ leaves in 'store' when it is not set: the store's own name */
            throw new InvalidArgumentException(
                "$key.store must name another cache store (e.g. 'redis'): [$inner] is itself a redislock store"
            );
        }
        return [$this->cache->store($inner)->getStore(), $inner];
    }

    /** @param string|array $servers one server form, or a list of them (several: RedLock) */
    private function locker(
        #[\SensitiveParameter] mixed $servers,
        #[\SensitiveParameter] array $options,
        string $key
    ): RedisLock|RedLock {
        if ($servers === null || $servers === '' || $servers === []) {
            throw new InvalidArgumentException(
                "$key.servers is missing or empty: give 'host:port', a redis:// (or valkey://) URL,"
                . " or a list of them for RedLock, or name a Redis connection of config/database.php as lock_connection"
            );
        }
        if (!is_string($servers) && !is_array($servers)) {
            throw new InvalidArgumentException(
                "$key.servers must be a string or an array, not " . get_debug_type($servers)
            );
        }
        try {
            return Lockers::create($servers, $options);
        } catch (\ValueError | \TypeError $e) {
            /* the extension's message names the argument and shows no secret */
            $from = $this->serversFrom ?? "$key.servers";
            throw new InvalidArgumentException("$from or $key.options: " . $e->getMessage(), 0, $e);
        }
    }

    /**
     * What goes in front of lock names: with the locks on a connection of
     * Laravel's (lock_connection) over its Redis store, that store's prefix
     * (as its own locks have it: "<prefix>:" up to Laravel 12, "<prefix>"
     * from 13); else the store's 'prefix' or the cache prefix, and ":" (the
     * keys of a store given 'servers' stay what they were).
     */
    private function lockPrefix(
        #[\SensitiveParameter] array $storeConfig,
        ?Store $innerOnConnection,
        string $key
    ): string {
        if (($storeConfig['prefix'] ?? null) === null && $innerOnConnection instanceof RedisStore) {
            return (string) $innerOnConnection->getPrefix();
        }
        $prefix = $storeConfig['prefix'] ?? $this->config->get('cache.prefix') ?? '';
        if (!is_string($prefix)) {
            throw new InvalidArgumentException("$key.prefix must be a string");
        }
        return $prefix === '' ? '' : $prefix . ':';
    }

    /** A TTL in seconds from config $name, in ms. */
    private function seconds(
        #[\SensitiveParameter] array $storeConfig,
        string $name,
        int|float $default,
        string $key
    ): int {
        $seconds = $storeConfig[$name] ?? $default;
        $message = "$key.$name must be a number of seconds, at least 0.001";
        if (!is_numeric($seconds) || !((float) $seconds >= 0.001)) {
            throw new InvalidArgumentException($message);
        }
        try {
            return Lockers::ms((float) $seconds);
        } catch (InvalidArgumentException $e) {
            throw new InvalidArgumentException("$message: " . $e->getMessage(), 0, $e);
        }
    }

    private function waitSeconds(#[\SensitiveParameter] array $storeConfig, string $key): float
    {
        $wait = $storeConfig['stampede_wait'] ?? RedisLockStore::DEFAULT_GUARD_WAIT;
        if (!is_numeric($wait) || !((float) $wait >= 0 && (float) $wait <= 86400)) {
            throw new InvalidArgumentException("$key.stampede_wait must be a number of seconds between 0 and 86400");
        }
        return (float) $wait;
    }

    /**
     * The name in cache.stores of this config, or null. Laravel hands the
     * creator the config array, not (before Laravel 10) the store's name:
     * look it up. Laravel 10+ fills an unset 'store' with that name.
     */
    private function storeName(#[\SensitiveParameter] array $storeConfig): ?string
    {
        $stores = $this->config->get('cache.stores');
        foreach (is_array($stores) ? $stores : [] as $name => $candidate) {
            if (
                is_array($candidate)
                && ($candidate == $storeConfig
                    || (($candidate['store'] ?? null) === null && ['store' => $name] + $candidate == $storeConfig))
            ) {
                return (string) $name;
            }
        }
        return null;
    }
}
