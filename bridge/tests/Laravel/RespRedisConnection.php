<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use RedisLock\Bridge\Tests\RedisServer;

/**
 * A Redis connection for Laravel's own RedisStore and RedisLock in the
 * tests, on the run's real redis-server, with no phpredis or predis (the
 * PHP 8.5 of the sid root has neither): the commands Laravel's lock (and
 * its store's get and put) sends,
 * each key with the connection's prefix in front, as phpredis's
 * OPT_PREFIX puts it (also in an EVAL's keys).
 */
final class RespRedisConnection
{
    private RedisServer $redis;

    public function __construct(
        RedisServer $server,
        private readonly string $prefix,
        private readonly string $name = 'default'
    ) {
        $this->redis = $server->client();
    }

    public function getName(): string
    {
        return $this->name;
    }

    public function set(string $key, mixed $value, mixed ...$options): mixed
    {
        return $this->redis->cmd('SET', $this->prefix . $key, (string) $value, ...array_map('strval', $options));
    }

    public function setex(string $key, int $seconds, mixed $value): mixed
    {
        return $this->redis->cmd('SETEX', $this->prefix . $key, (string) $seconds, (string) $value);
    }

    public function setnx(string $key, mixed $value): mixed
    {
        return $this->redis->cmd('SETNX', $this->prefix . $key, (string) $value);
    }

    public function get(string $key): mixed
    {
        return $this->redis->cmd('GET', $this->prefix . $key);
    }

    public function del(string ...$keys): mixed
    {
        return $this->redis->cmd('DEL', ...array_map(fn (string $k) => $this->prefix . $k, $keys));
    }

    public function eval(string $script, int $numberOfKeys, mixed ...$arguments): mixed
    {
        $arguments = array_map('strval', $arguments);
        for ($i = 0; $i < $numberOfKeys; $i++) {
            $arguments[$i] = $this->prefix . $arguments[$i];
        }
        return $this->redis->cmd('EVAL', $script, (string) $numberOfKeys, ...$arguments);
    }

    public function __call(string $method, array $arguments): never
    {
        throw new \BadMethodCallException("the tests' Redis connection does not send $method");
    }
}
