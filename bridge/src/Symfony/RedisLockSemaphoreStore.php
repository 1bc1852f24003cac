<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Symfony;

use RedisLock;
use RedisLock\Bridge\Lockers;
use Symfony\Component\Semaphore\Exception\InvalidArgumentException;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Exception\SemaphoreExpiredException;
use Symfony\Component\Semaphore\Key;
use Symfony\Component\Semaphore\PersistingStoreInterface;

/**
 * A Symfony Semaphore store on the extension's permits (RedisLock::
 * acquirePermit(): one script, a sorted set of permits with their expiry).
 * A Key of weight w takes w permits, one by one; when not all can be had,
 * those taken are given back and the save fails (a weight above 1 is thus
 * not one atomic step, but never holds part of its weight after save()).
 * The RedisLock must be built with 'reentrant' => false (fromServers() does).
 */
final class RedisLockSemaphoreStore implements PersistingStoreInterface
{
    public function __construct(private readonly RedisLock $locker)
    {
    }

    /** @param array<string, mixed> $options the extension's options */
    public static function fromServers(
        #[\SensitiveParameter] string|array|\Redis $server,
        #[\SensitiveParameter] array $options = [],
    ): self {
        $locker = Lockers::create($server, $options);
        if (!$locker instanceof RedisLock) {
            throw new InvalidArgumentException(
                'Semaphores live on one Redis node (or a Sentinel group, a Cluster): give one server, not a list.'
            );
        }
        return new self($locker);
    }

    public function save(Key $key, float $ttlInSecond): void
    {
        $this->checkTtl($ttlInSecond);
        $resource = $this->resource($key);
        $ttl = Lockers::ms($ttlInSecond);
        $tokens = $this->tokensOf($key);
        try {
            foreach ($tokens as $token) { /* saved again: what it holds is refreshed */
                if (!$this->locker->extend($resource, $token, $ttl)) {
                    $tokens = array_values(array_diff($tokens, [$token]));
                }
            }
            while (count($tokens) < $key->getWeight()) {
                $token = $this->locker->acquirePermit($resource, $key->getLimit(), $ttl);
                if ($token === null) {
                    $this->giveBack($resource, $tokens);
                    $key->removeState(__CLASS__);
                    throw new SemaphoreAcquiringException($key, 'no permit left');
                }
                $tokens[] = $token;
            }
        } catch (\RedisLockException $e) {
            $this->giveBack($resource, $tokens);
            $key->removeState(__CLASS__);
            throw $e;
        }
        $key->setState(__CLASS__, $tokens);
    }

    public function putOffExpiration(Key $key, float $ttlInSecond): void
    {
        $this->checkTtl($ttlInSecond);
        $tokens = $this->tokensOf($key);
        if ($tokens === []) {
            /* Symfony's own message (its store tests read it): its script's answer for a Key it has not saved */
            throw new SemaphoreExpiredException($key, 'the script returns a positive number');
        }
        foreach ($tokens as $token) {
            if (!$this->locker->extend($this->resource($key), $token, Lockers::ms($ttlInSecond))) {
                throw new SemaphoreExpiredException($key, 'a permit it held ran out');
            }
        }
    }

    public function delete(Key $key): void
    {
        $this->giveBack($this->resource($key), $this->tokensOf($key));
        $key->removeState(__CLASS__);
    }

    public function exists(Key $key): bool
    {
        $tokens = $this->tokensOf($key);
        foreach ($tokens as $token) {
            if (!$this->locker->holds($this->resource($key), $token)) {
                return false;
            }
        }
        return $tokens !== [];
    }

    /** @param list<string> $tokens */
    private function giveBack(string $resource, array $tokens): void
    {
        foreach ($tokens as $token) {
            $this->locker->unlock($resource, $token);
        }
    }

    /** @return list<string> */
    private function tokensOf(Key $key): array
    {
        return $key->hasState(__CLASS__) ? $key->getState(__CLASS__) : [];
    }

    private function checkTtl(float $ttl): void
    {
        if (!($ttl > 0) || !is_finite($ttl)) {
            throw new InvalidArgumentException(
                sprintf('The TTL should be greater than 0, "%s" given.', Lockers::show($ttl))
            );
        }
    }

    private function resource(Key $key): string
    {
        $resource = (string)$key;
        if ($resource === '') {
            throw new InvalidArgumentException('A semaphore\'s resource name must not be empty.');
        }
        return $resource;
    }
}
