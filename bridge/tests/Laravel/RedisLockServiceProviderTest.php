<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Cache\ArrayStore;
use Illuminate\Cache\CacheManager;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use RedisLock;
use RedisLock\Bridge\Laravel\RedisLockLock;
use RedisLock\Bridge\Laravel\RedisLockRepository;
use RedisLock\Bridge\Laravel\RedisLockServiceProvider;
use RedisLock\Bridge\Laravel\RedisLockStore;
use RedisLock\Bridge\Tests\RedisServer;
use RedLock;

require_once __DIR__ . '/LaravelTestCase.php';

/** The 'redislock' cache driver, wired from config by the service provider into a real CacheManager. */
final class RedisLockServiceProviderTest extends LaravelTestCase
{
    private const SECRET = 'hunter2-secret';

    protected function setUp(): void
    {
        parent::setUp();
        $this->needsContainer();
    }

    public function testTheDriverComesFromConfig(): void
    {
        $cache = $this->cacheManager(['locks' => $this->locksConfig()]);
        $repository = $cache->store('locks');
        $store = $repository->getStore();

        $this->assertInstanceOf(RedisLockStore::class, $store);
        $this->assertInstanceOf(RedisLock::class, $store->locker());
        $this->assertSame('app:', $store->lockPrefix(), 'the global cache.prefix, as RedisStore does');

        $repository->put('k', 'v', 60);
        $this->assertSame('v', $cache->store('array')->get('k'), 'cache calls go to the named store');
        $this->assertInstanceOf(ArrayStore::class, $store->innerStore());

        $name = $this->uniqueName();
        $lock = $repository->lock($name, 10);
        $this->assertInstanceOf(RedisLockLock::class, $lock);
        $this->assertTrue($lock->get());
        $this->assertSame($lock->owner(), $this->server()->cmd('GET', 'lock:app:' . $name));
        $this->assertFalse($repository->lock($name, 10)->get());
        $this->assertTrue($repository->restoreLock($name, $lock->owner())->release());
    }

    public function testTheRepositoryGuardsRememberWithTheConfiguredWait(): void
    {
        $repository = $this->cacheManager(
            ['locks' => $this->locksConfig(['stampede_wait' => 0.25, 'stampede_ttl' => 3])]
        )
            ->store('locks');
        $this->assertInstanceOf(RedisLockRepository::class, $repository);
        $store = $repository->getStore();
        $this->assertSame(0.25, $store->guardWait());
        $this->assertSame(3000, $store->guardTtlMs());
        $this->assertNotSame($store->locker(), $store->guardLocker());

        /* a computation held elsewhere: this one waits the configured 0.25 s, then computes itself */
        $name = $this->uniqueName();
        $holder = new RedisLock($this->server()->address());
        $token = $holder->lock('app:cache:' . $name, 10000);
        $start = microtime(true);
        $this->assertSame('computed here', $repository->remember($name, 60, static fn () => 'computed here'));
        $this->assertGreaterThanOrEqual(0.24, microtime(true) - $start);
        $holder->unlock('app:cache:' . $name, $token);
    }

    public function testTheDriverIsThereAlsoWhenTheCacheWasResolvedFirst(): void
    {
        $app = $this->app(['locks' => $this->locksConfig()]);
        $app->make('cache');
        (new RedisLockServiceProvider($app))->register();
        $this->assertInstanceOf(RedisLockStore::class, $app['cache']->store('locks')->getStore());
    }

    public function testTheStoresPrefixAndOptionsAreUsed(): void
    {
        $cache = $this->cacheManager(['locks' => $this->locksConfig([
            'prefix' => 'shop',
            'options' => ['prefix' => 'mutex:', 'timeout' => 2.0],
        ])]);
        $repository = $cache->store('locks');
        $name = $this->uniqueName();
        $lock = $repository->lock($name, 10);
        $this->assertTrue($lock->get());
        $this->assertSame($lock->owner(), $this->server()->cmd('GET', 'mutex:shop:' . $name));
        $lock->release();
    }

    public function testAutoReleaseIsOffUnlessTheOptionsSayOtherwise(): void
    {
        $name = $this->uniqueName();
        $repository = $this->cacheManager(['locks' => $this->locksConfig()])->store('locks');
        $this->assertTrue($repository->lock($name, 10)->get());
        unset($repository);
        gc_collect_cycles();
        $this->assertSame(1, $this->server()->cmd('EXISTS', 'lock:app:' . $name), 'kept for its owner');
        $this->server()->cmd('DEL', 'lock:app:' . $name);

        $repository = $this->cacheManager(['locks' => $this->locksConfig(['options' => ['auto_release' => true]])])
            ->store('locks');
        $this->assertTrue($repository->lock($name, 10)->get());
        unset($repository);
        gc_collect_cycles();
        $this->assertSame(0, $this->server()->cmd('EXISTS', 'lock:app:' . $name), 'released with its object');
    }

    public function testAListOfServersIsARedLock(): void
    {
        $more = [RedisServer::start(), RedisServer::start()];
        try {
            $servers = [$this->server()->address(), $more[0]->address(), 'redis://' . $more[1]->address()];
            $repository = $this->cacheManager(['locks' => $this->locksConfig(['servers' => $servers])])->store('locks');
            $this->assertInstanceOf(RedLock::class, $repository->getStore()->locker());

            $name = $this->uniqueName();
            $lock = $repository->lock($name, 10);
            $this->assertTrue($lock->get());
            $holding = array_filter(
                [$this->server(), ...$more],
                fn (RedisServer $node): bool => $node->cmd('GET', 'lock:app:' . $name) === $lock->owner()
            );
            $this->assertGreaterThanOrEqual(2, count($holding), 'on a quorum of the nodes');
            $this->assertFalse($repository->lock($name, 10)->get());
            $this->assertTrue($repository->restoreLock($name, $lock->owner())->release());
            $this->assertTrue($repository->lock($name, 10)->get());
            $repository->lock($name)->forceRelease();
        } finally {
            array_map(static fn (RedisServer $node) => $node->stop(), $more);
        }
    }

    /** Laravel's 'lock_connection': the server and the key prefix of a Redis connection of config/database.php. */
    public function testLockConnectionNamesAConnectionOfTheDatabaseConfig(): void
    {
        $repository = $this->cacheManager(
            ['locks' => ['driver' => 'redislock', 'store' => 'array', 'lock_connection' => 'locking']]
        )
            ->store('locks');
        $store = $repository->getStore();
        $this->assertSame('locking', $store->lockConnectionName());
        $name = $this->uniqueName();
        $lock = $repository->lock($name, 10);
        $this->assertSame('locking', $lock->getConnectionName());
        $this->assertTrue($lock->get());
        $this->assertSame(
            $lock->owner(),
            $this->server()->cmd('GET', 'own_app:' . $name),
            'the connection\'s own prefix first'
        );
        $this->assertTrue($lock->release());

        $plain = $this->cacheManager(
            ['locks' => ['driver' => 'redislock', 'store' => 'array', 'lock_connection' => 'plain']]
        )
            ->store('locks')->lock($name, 10);
        $this->assertTrue($plain->get());
        $this->assertSame(
            $plain->owner(),
            $this->server()->cmd('GET', 'global_app:' . $name),
            'database.redis.options.prefix'
        );
        $this->assertTrue($plain->release());

        $this->assertNull(
            $this->cacheManager(['locks' => $this->locksConfig()])->store('locks')->lock($name, 10)->getConnectionName(),
            'servers given: no connection of Laravel\'s'
        );
    }

    public function testOneServerInAListIsARedisLock(): void
    {
        $repository = $this->cacheManager(['locks' => $this->locksConfig(['servers' => [$this->server()->address()]])])
            ->store('locks');
        $this->assertInstanceOf(RedisLock::class, $repository->getStore()->locker());
    }

    /** @dataProvider badConfigs (PHPUnit 9.6; 10+ reads the attribute) */
    #[\PHPUnit\Framework\Attributes\DataProvider('badConfigs')]
    public function testABadConfigIsAClearExceptionWithoutSecrets(array $config, string $expected): void
    {
        $ignoreArgs = ini_set('zend.exception_ignore_args', '0'); // traces with arguments: none may show a secret
        try {
            $this->cacheManager(['locks' => $config])->store('locks');
            $this->fail('accepted a bad config');
        } catch (\InvalidArgumentException $e) {
            $this->assertStringContainsString($expected, $e->getMessage());
            for ($each = $e; $each !== null; $each = $each->getPrevious()) {
                $this->assertStringNotContainsString(self::SECRET, $each->getMessage());
            }
            $this->assertStringNotContainsString(self::SECRET, (string) $e);
            for ($each = $e; $each !== null; $each = $each->getPrevious()) {
                foreach ($each->getTrace() as $frame) {
                    if (self::isOurs($frame)) {
                        $this->assertFalse(
                            self::showsSecret($frame['args'] ?? []),
                            "a secret in the arguments of {$frame['function']}() in a trace"
                        );
                    }
                }
            }
        } finally {
            ini_set('zend.exception_ignore_args', (string) $ignoreArgs);
        }
    }

    /** A frame of the bridge or the extension (Laravel's own show the config array it was given). */
    private static function isOurs(array $frame): bool
    {
        $class = $frame['class'] ?? '';
        return str_starts_with($class, 'RedisLock\\Bridge\\Laravel\\') || $class === RedisLock::class || $class === RedLock::class
            || str_contains($frame['file'] ?? '', '/src/Laravel/');
    }

    /** Strings and arrays of strings, as a trace shows them; objects are not looked into. */
    private static function showsSecret(mixed $value): bool
    {
        if (is_string($value)) {
            return str_contains($value, self::SECRET);
        }
        if (is_array($value)) {
            foreach ($value as $item) {
                if (self::showsSecret($item)) {
                    return true;
                }
            }
        }
        return false;
    }

    public static function badConfigs(): array
    {
        $secretUrl = 'redis://user:' . self::SECRET . '@127.0.0.1:6379';
        $base = ['driver' => 'redislock', 'store' => 'array', 'servers' => $secretUrl];
        return [
            'no servers' => [['servers' => null] + $base, 'cache.stores.locks.servers is missing or empty'],
            'empty servers' => [['servers' => []] + $base, 'cache.stores.locks.servers is missing or empty'],
            'servers of a wrong type' => [['servers' => 6379] + $base, 'cache.stores.locks.servers must be a string or an array'],
            'a malformed server' => [['servers' => $secretUrl . '?db=1'] + $base, 'cache.stores.locks.servers or cache.stores.locks.options'],
            'an unknown option' => [['options' => ['pasword' => self::SECRET]] + $base, 'unknown option'],
            'no inner store' => [['store' => null] + $base, 'cache.stores.locks.store is missing'],
            'an unknown inner store' => [['store' => 'nope'] + $base, 'cache.stores.locks.store names the cache store [nope], which is not in cache.stores'],
            'itself as the inner store' => [['store' => 'locks'] + $base, 'cache.stores.locks.store must name another cache store'],
            'options not an array' => [['options' => self::SECRET] + $base, 'cache.stores.locks.options must be an array'],
            'a bad auto_extend_ttl' => [['auto_extend_ttl' => 0] + $base, 'cache.stores.locks.auto_extend_ttl must be'],
            'an auto_extend_ttl no int holds' => [['auto_extend_ttl' => 1e30] + $base, 'cache.stores.locks.auto_extend_ttl must be'],
            'a bad stampede_ttl' => [['stampede_ttl' => 'soon'] + $base, 'cache.stores.locks.stampede_ttl must be'],
            'a negative stampede_wait' => [['stampede_wait' => -1] + $base, 'cache.stores.locks.stampede_wait must be'],
            'a stampede_wait of days' => [['stampede_wait' => 86401] + $base, 'cache.stores.locks.stampede_wait must be'],
            'an unknown lock_connection' => [['lock_connection' => 'nope', 'servers' => null] + $base,
                'cache.stores.locks.lock_connection names the Redis connection [nope], which is not in database.redis'],
            'lock_connection and servers' => [['lock_connection' => 'locking'] + $base, 'give servers or lock_connection, not both'],
            'a lock_connection of a cluster' => [['lock_connection' => 'main', 'servers' => null] + $base,
                'names [main], a Redis Cluster of database.redis.clusters'],
            'a lock_connection not a name' => [['lock_connection' => ['locking'], 'servers' => null] + $base,
                'cache.stores.locks.lock_connection must name a Redis connection'],
            'a lock_connection with a bad URL' => [['lock_connection' => 'secret', 'servers' => null] + $base,
                'database.redis.secret.url must be a redis://'],
        ];
    }

    private function locksConfig(array $overrides = []): array
    {
        return $overrides + [
            'driver' => 'redislock',
            'store' => 'array',
            'servers' => $this->server()->address(),
        ];
    }

    private function cacheManager(array $stores): CacheManager
    {
        $app = $this->app($stores);
        (new RedisLockServiceProvider($app))->register();
        return $app['cache'];
    }

    /** The few services a CacheManager needs from Laravel's application. */
    private function app(array $stores): Container
    {
        $app = new Container();
        $app->instance('config', new Config([
            'cache' => [
                'default' => 'array',
                'prefix' => 'app',
                'stores' => ['array' => ['driver' => 'array']] + $stores,
            ],
            'database' => ['redis' => [
                'options' => ['prefix' => 'global_'],
                'locking' => ['url' => 'redis://' . $this->server()->address() . '/0', 'options' => ['prefix' => 'own_']],
                'plain' => ['host' => $this->server()->host, 'port' => (string) $this->server()->port],
                'secret' => ['url' => 'http://user:' . self::SECRET . '@127.0.0.1:6379'],
                'clusters' => ['main' => [['host' => '127.0.0.1', 'port' => 7000]]],
            ]],
        ]));
        $app->singleton('cache', fn (Container $app): CacheManager => new CacheManager($app));
        return $app;
    }
}
