<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Cache\RedisStore;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use RedisLock\Bridge\Laravel\RedisLockLock;
use RedisLock\Bridge\Laravel\RedisLockServiceProvider;
use RedisLock\Bridge\Laravel\RedisLockStore;

require_once __DIR__ . '/LaravelTestCase.php';

/**
 * A rolling switch from Laravel's own Redis store to the redislock driver:
 * CACHE_DRIVER changes from 'redis' to 'locks' (['driver' => 'redislock',
 * 'store' => 'redis'], nothing else), and old and new code take the same
 * locks: the same server, the same keys, each finding the other's held.
 * Laravel's RedisStore and RedisLock are its own classes, on the run's
 * redis-server.
 */
final class RollingSwitchTest extends LaravelTestCase
{
    private const CONNECTION_PREFIX = 'shop_database_';

    protected function setUp(): void
    {
        parent::setUp();
        $this->needsContainer();
    }

    public function testTheDefaultsAreLaravelsServerAndKeys(): void
    {
        $cache = $this->cacheManager();
        $laravel = $cache->store('redis')->getStore();
        $ours = $cache->store('locks')->getStore();
        $this->assertInstanceOf(RedisStore::class, $laravel);
        $this->assertInstanceOf(RedisLockStore::class, $ours);
        $this->assertSame('default', $ours->lockConnectionName(), 'the inner Redis store\'s lock_connection');

        $name = $this->uniqueName();
        $theirs = $laravel->lock($name, 10);
        $this->assertTrue($theirs->get());
        $key = self::CONNECTION_PREFIX . $laravel->getPrefix() . $name;
        $this->assertSame($theirs->owner(), $this->server()->cmd('GET', $key), 'Laravel\'s own key');
        $mine = $ours->lock($name, 10);
        $this->assertInstanceOf(RedisLockLock::class, $mine);
        $this->assertSame('default', $mine->getConnectionName());
        $this->assertSame($theirs->getConnectionName(), $mine->getConnectionName());
        $this->assertFalse($mine->get(), 'Laravel\'s lock is held for ours');
        $this->assertTrue($theirs->release());
        $this->assertTrue($mine->get());
        $this->assertSame($mine->owner(), $this->server()->cmd('GET', $key), 'ours on the same key');
        $this->assertFalse($laravel->lock($name, 10)->get(), 'ours is held for Laravel\'s');
        $this->assertTrue($mine->release());
    }

    /**
     * The stampede guard's locks are not Laravel's: kept out of the cache's keys (under the connection's prefix and
     * "lock:").
     */
    public function testTheStampedeGuardsLocksAreOutOfTheCachesKeys(): void
    {
        $repository = $this->cacheManager()->store('locks');
        $item = $this->uniqueName();
        $seen = null;
        $value = $repository->remember($item, 60, function () use (&$seen, $item) {
            $seen = $this->server()->cmd('KEYS', '*' . $item . '*');
            return 'computed';
        });
        $this->assertSame('computed', $value);
        $this->assertSame(
            ['shop_database_lock:shop_cache:cache:' . $item],
            $seen,
            'the guard\'s lock while it computes'
        );
        $this->assertSame(
            'computed',
            $this->cacheManager()->store('redis')->get($item),
            'the item in Laravel\'s own store'
        );
    }

    public function testAStoreGivenServersKeepsTheExtensionsKeys(): void
    {
        $cache = $this->cacheManager(['servers' => $this->server()->address()]);
        $store = $cache->store('locks')->getStore();
        $this->assertNull($store->lockConnectionName());
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10);
        $this->assertTrue($lock->get());
        $this->assertSame(
            $lock->owner(),
            $this->server()->cmd('GET', 'lock:shop_cache:' . $name),
            'as before: no key of Laravel\'s'
        );
        $this->assertTrue($lock->release());
    }

    /** The inner Redis store's lock connection, when it is no usable one: an error naming that store's config key. */
    public function testTheInnerStoresLockConnectionMustBeOne(): void
    {
        foreach (
            [['nope', 'cache.stores.redis.lock_connection (the inner store\'s) names the Redis connection [nope], which is not in database.redis'],
                  [['default'], 'cache.stores.redis.lock_connection must name a Redis connection']] as [$lockConnection, $expected]
        ) {
            try {
                $this->cacheManager([], ['lock_connection' => $lockConnection])->store('locks');
                $this->fail('a lock connection that is none accepted');
            } catch (\InvalidArgumentException $e) {
                $this->assertStringContainsString($expected, $e->getMessage());
            }
        }
    }

    /** @return array<string, array{string, int, string, int}> who holds first (seconds), who tries second (seconds) */
    public static function combinations(): array
    {
        $all = [];
        foreach ([['laravel', 'ours'], ['ours', 'laravel']] as [$first, $second]) {
            foreach ([10, 0] as $firstSeconds) {
                foreach ([10, 0] as $secondSeconds) {
                    $all["$first ({$firstSeconds} s), then $second ({$secondSeconds} s)"] = [$first, $firstSeconds, $second, $secondSeconds];
                }
            }
        }
        return $all;
    }

    /**
     * @dataProvider combinations (PHPUnit 9.6; 10+ reads the attribute)
     * Seconds 0: Laravel's lock without expiry (SETNX), ours kept by the watchdog.
     */
    #[\PHPUnit\Framework\Attributes\DataProvider('combinations')]
    public function testEachFindsTheOthersLockHeld(
        string $first,
        int $firstSeconds,
        string $second,
        int $secondSeconds
    ): void {
        $cache = $this->cacheManager();
        $stores = ['laravel' => $cache->store('redis')->getStore(), 'ours' => $cache->store('locks')->getStore()];
        $name = $this->uniqueName();
        $held = $stores[$first]->lock($name, $firstSeconds);
        $this->assertTrue($held->get());
        $this->assertFalse($stores[$second]->lock($name, $secondSeconds)->get(), 'another owner');
        $this->assertFalse(
            $stores[$second]->restoreLock($name, $held->owner())->get(),
            'the same owner: held, as Laravel has it'
        );
        $this->assertTrue(
            $stores[$second]->restoreLock($name, $held->owner())->release(),
            'its owner releases it through either store'
        );

        $next = $stores[$second]->lock($name, $secondSeconds);
        $this->assertTrue($next->get(), 'free again: had');
        $this->assertFalse($stores[$first]->lock($name, $firstSeconds)->get());
        $this->assertTrue($next->release());
        $this->assertSame(
            0,
            $this->server()->cmd('EXISTS', self::CONNECTION_PREFIX . $stores['laravel']->getPrefix() . $name)
        );
    }

    /** 4 processes, each switching store every round: never two holders at once. */
    public function testProcessesOnBothStoresNeverHoldItTogether(): void
    {
        $name = $this->uniqueName();
        $inside = "$name-inside";
        $children = [];
        for ($p = 0; $p < 4; $p++) {
            $children[] = ChildProcess::run(function (ChildProcess $child) use ($p, $name, $inside): void {
                $cache = $this->cacheManager();
                $stores = [$cache->store('redis')->getStore(), $cache->store('locks')->getStore()];
                $redis = $this->server()->client();
                $overlaps = 0;
                for ($round = 0; $round < 30; $round++) {
                    $lock = $stores[($p + $round) % 2]->lock($name, 10);
                    for ($deadline = microtime(true) + 20; !$lock->get();) {
                        if (microtime(true) > $deadline) {
                            $child->send("round $round: not had in 20 s");
                            return;
                        }
                        usleep(random_int(200, 2000));
                    }
                    $overlaps += $redis->cmd('INCR', $inside) === 1 ? 0 : 1;
                    usleep(300);
                    $redis->cmd('DECR', $inside);
                    $lock->release();
                }
                $child->send("$overlaps overlaps");
            });
        }
        foreach ($children as $child) {
            $this->assertSame('0 overlaps', $child->receive(60.0));
            $child->wait();
        }
        $this->server()->cmd('DEL', $inside);
    }

    /**
     * Laravel's config of a Redis cache store, and a 'locks' store on it that names nothing else ($locks, $redis:
     * more).
     */
    private function cacheManager(array $locks = [], array $redis = []): CacheManager
    {
        $app = new Container();
        $app->instance('config', new Config([
            'database' => ['redis' => [
                'client' => 'phpredis',
                'options' => ['prefix' => self::CONNECTION_PREFIX],
                'default' => ['host' => $this->server()->host, 'port' => $this->server()->port, 'database' => '0'],
                'cache' => ['host' => $this->server()->host, 'port' => $this->server()->port, 'database' => '0'],
            ]],
            'cache' => [
                'default' => 'redis',
                'prefix' => 'shop_cache',
                'stores' => [
                    'redis' => $redis + ['driver' => 'redis', 'connection' => 'cache', 'lock_connection' => 'default'],
                    'locks' => $locks + ['driver' => 'redislock', 'store' => 'redis'],
                ],
            ],
        ]));
        $app->instance('redis', new RespRedisFactory([
            'default' => new RespRedisConnection($this->server(), self::CONNECTION_PREFIX),
            'cache' => new RespRedisConnection($this->server(), self::CONNECTION_PREFIX, 'cache'),
        ]));
        $app->singleton('cache', fn (Container $app): CacheManager => new CacheManager($app));
        (new RedisLockServiceProvider($app))->register();
        return $app['cache'];
    }
}
