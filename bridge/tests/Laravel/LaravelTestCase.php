<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Cache\ArrayStore;
use Illuminate\Contracts\Cache\Store;
use PHPUnit\Framework\TestCase;
use RedisLock;
use RedisLock\Bridge\Laravel\RedisLockStore;
use RedisLock\Bridge\Laravel\RedisLockStoreFactory;
use RedisLock\Bridge\Tests\RedisServer;

/**
 * The Laravel suite's base: skipped without Debian's php-illuminate-cache;
 * stores on the run's throwaway redis-server, with lock names unique per test.
 */
abstract class LaravelTestCase extends TestCase
{
    /** Lock names get this from the store; Redis keys are "lock:" . LOCK_PREFIX . name. */
    protected const LOCK_PREFIX = 'test:';

    protected function setUp(): void
    {
        if (!bridge_framework('Illuminate/Cache/autoload.php')) {
            $this->markTestSkipped('Laravel\'s illuminate/cache is not installed (Debian: php-illuminate-cache)');
        }
        RedisServer::shared(); // started here, before any fork: a child would start a server of its own
    }

    /** Skips unless Laravel's container and config are installed: a CacheManager needs them. */
    protected function needsContainer(): void
    {
        if (!bridge_framework('Illuminate/Container/autoload.php') || !bridge_framework('Illuminate/Config/autoload.php')) {
            $this->markTestSkipped('Laravel\'s illuminate/container and illuminate/config are not installed'
                . ' (Debian: php-illuminate-container, php-illuminate-config)');
        }
    }

    protected function server(): RedisServer
    {
        return RedisServer::shared();
    }

    /** A store as the service provider builds it (over an ArrayStore by default), on fresh lockers. */
    protected function newStore(
        int $autoExtendTtlMs = RedisLockStore::DEFAULT_AUTO_EXTEND_TTL_MS,
        ?Store $inner = null,
    ): RedisLockStore {
        $options = RedisLockStoreFactory::lockerOptions([]);
        return new RedisLockStore(
            $inner ?? new ArrayStore(),
            new RedisLock($this->server()->address(), $options),
            new RedisLock($this->server()->address(), ['auto_extend' => true] + $options),
            self::LOCK_PREFIX,
            $autoExtendTtlMs,
            new RedisLock($this->server()->address(), ['auto_extend' => true, 'auto_release' => true] + $options),
        );
    }

    /** The test class's short name and random bytes (no PHPUnit API: its name differs across versions). */
    protected function uniqueName(): string
    {
        return (new \ReflectionClass($this))->getShortName() . '-' . bin2hex(random_bytes(4));
    }

    /** The Redis key of the lock $name. */
    protected function key(string $name): string
    {
        return 'lock:' . self::LOCK_PREFIX . $name;
    }

    protected function pttl(string $name): int
    {
        return $this->server()->cmd('PTTL', $this->key($name));
    }
}
