<?php

declare(strict_types=1);

namespace RedisLock\Bridge;

use RedisLock;
use RedLock;

/**
 * Builds the extension's lock object a bridge store works through: one
 * server form (a "host:port", redis:// or valkey:// string, an array, a \Redis) gives a
 * RedisLock, a list of two or more gives a RedLock (a quorum of independent
 * nodes). Stores serve many owners from one object, so it is never
 * re-entrant ('reentrant' => false, whatever the options say).
 */
final class Lockers
{
    /**
     * @param string|array<mixed>|\Redis $servers
     * @param array<string, mixed>       $options the extension's options
     */
    public static function create(
        #[\SensitiveParameter] string|array|\Redis $servers,
        #[\SensitiveParameter] array $options = [],
    ): RedisLock|RedLock {
        $options['reentrant'] = false;
        if (is_array($servers) && array_is_list($servers) && count($servers) > 1) {
            $retryDelay = (int)($options['retry_delay'] ?? 200);
            $retryCount = (int)($options['retry_count'] ?? 3);
            unset($options['retry_delay'], $options['retry_count']);
            return new RedLock($servers, $retryDelay, $retryCount, $options);
        }
        if (is_array($servers) && array_is_list($servers) && count($servers) === 1) {
            $servers = $servers[0];
        }
        if ($servers === []) {
            throw new \InvalidArgumentException('no Redis server given');
        }
        return new RedisLock($servers, $options);
    }

    /** A fresh random owner token (the extension's tokens are 1-256 bytes, no NUL). */
    public static function token(): string
    {
        return bin2hex(random_bytes(16));
    }

    /**
     * Seconds (a float, as Symfony passes them) to the extension's ms: a
     * sub-millisecond TTL rounds up.
     *
     * @throws \InvalidArgumentException INF, NAN, or more ms than an int holds
     *         (PHP 8.5 warns at such a cast, and the TTL would be wrong)
     */
    public static function ms(float $seconds): int
    {
        $ms = ceil($seconds * 1000);
        if (!is_finite($ms) || abs($ms) >= PHP_INT_MAX) {
            throw new \InvalidArgumentException(sprintf('a TTL of %s seconds is out of range', self::show($seconds)));
        }
        return max(1, (int)$ms);
    }

    /** A float for a message (PHP 8.5 warns when NAN becomes a string). */
    public static function show(float $number): string
    {
        return is_nan($number) ? 'NAN' : (string)$number;
    }
}
