<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Contracts\Cache\Store;
use RedisLock\Bridge\Tests\RedisServer;

/**
 * An inner cache store the processes of a test share: the run's
 * redis-server (serialized values, a prefix per test), on a connection of
 * this process's own.
 */
final class SharedRedisStore implements Store
{
    private RedisServer $redis;

    public function __construct(private readonly string $prefix)
    {
        $this->redis = RedisServer::shared()->client();
    }

    public function get($key)
    {
        $v = $this->redis->cmd('GET', $this->prefix . $key);
        return $v === null ? null : unserialize($v);
    }

    public function many(array $keys)
    {
        $out = [];
        foreach ($keys as $key) {
            $out[$key] = $this->get($key);
        }
        return $out;
    }

    public function put($key, $value, $seconds)
    {
        return $this->redis->cmd('SET', $this->prefix . $key, serialize($value), 'EX', (string) max(1, (int) $seconds)) === 'OK';
    }

    public function putMany(array $values, $seconds)
    {
        foreach ($values as $key => $value) {
            $this->put($key, $value, $seconds);
        }
        return true;
    }

    public function increment($key, $value = 1)
    {
        return $this->redis->cmd('INCRBY', $this->prefix . $key, (string) $value);
    }

    public function decrement($key, $value = 1)
    {
        return $this->redis->cmd('DECRBY', $this->prefix . $key, (string) $value);
    }

    public function forever($key, $value)
    {
        return $this->redis->cmd('SET', $this->prefix . $key, serialize($value)) === 'OK';
    }

    public function forget($key)
    {
        return $this->redis->cmd('DEL', $this->prefix . $key) > 0;
    }

    public function flush()
    {
        return true;
    }

    public function getPrefix()
    {
        return $this->prefix;
    }

    public function touch($key, $seconds)
    {
        return $this->redis->cmd('EXPIRE', $this->prefix . $key, (string) max(1, (int) $seconds)) === 1;
    }
}
