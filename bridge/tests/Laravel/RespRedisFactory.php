<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Contracts\Redis\Factory;

/** Laravel's Redis manager for the tests: named RespRedisConnections. */
final class RespRedisFactory implements Factory
{
    /** @param array<string, RespRedisConnection> $connections */
    public function __construct(private readonly array $connections)
    {
    }

    public function connection($name = null)
    {
        return $this->connections[$name ?? 'default']
            ?? throw new \InvalidArgumentException("Redis connection [$name] not configured.");
    }
}
