<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Support\ServiceProvider;

/**
 * Adds the cache driver "redislock" (see RedisLockStoreFactory for its
 * config). Discovered through composer.json's extra.laravel.providers.
 *
 * The driver is added when the cache manager is first resolved, not in
 * boot(): another provider's boot() may already ask for the store, and
 * Laravel 8's deferred CacheServiceProvider makes the manager on demand.
 */
class RedisLockServiceProvider extends ServiceProvider
{
    public function register()
    {
        $this->app->afterResolving('cache', function ($cache): void {
            if ($cache instanceof CacheManager) {
                $this->addDriver($cache);
            }
        });
        if ($this->app->resolved('cache')) {
            $this->addDriver($this->app->make('cache'));
        }
    }

    public function addDriver(CacheManager $cache): void
    {
        /* not a static closure: extend() binds it to the manager */
        $cache->extend(RedisLockStoreFactory::DRIVER, function ($app, #[\SensitiveParameter] array $config) {
            $manager = $app['cache'];
            $store = (new RedisLockStoreFactory($manager, $app['config']))->make($config);
            /* the manager's repository as it makes it (events, its config), as ours: remember() guarded */
            $made = $manager->repository($store, $config);
            $repository = new RedisLockRepository($store, array_intersect_key($config, ['store' => true]));
            if (($events = $made->getEventDispatcher()) !== null) {
                $repository->setEventDispatcher($events);
            }
            return $repository;
        });
    }
}
