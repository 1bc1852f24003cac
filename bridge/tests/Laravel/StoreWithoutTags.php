<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Contracts\Cache\Store;

/** The least inner store: nothing cached, no tags, no add(); touch() as Laravel 13's contract has it. */
final class StoreWithoutTags implements Store
{
    public function get($key)
    {
        return null;
    }

    public function many(array $keys)
    {
        return array_fill_keys($keys, null);
    }

    public function put($key, $value, $seconds)
    {
        return true;
    }

    public function putMany(array $values, $seconds)
    {
        return true;
    }

    public function increment($key, $value = 1)
    {
        return false;
    }

    public function decrement($key, $value = 1)
    {
        return false;
    }

    public function forever($key, $value)
    {
        return true;
    }

    public function touch($key, $seconds)
    {
        return false;
    }

    public function forget($key)
    {
        return true;
    }

    public function flush()
    {
        return true;
    }

    public function getPrefix()
    {
        return '';
    }
}
