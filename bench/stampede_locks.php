<?php
/*
 * The locks the stampede benchmark compares (used by stampede_request.php,
 * inside php-fpm). stampede_lock() takes the lock, waiting, and returns the
 * function that releases it; stampede_missing() says why a variant cannot run
 * here (a library or a bridge class not installed), or null.
 * Libraries: the Debian packages on the include_path (php-symfony-lock,
 * php-illuminate-cache, php-illuminate-redis), or bench/vendor if there is
 * one; the bridges from bridge/src (PSR-4 RedisLock\Bridge\).
 */
if (is_file(__DIR__ . '/vendor/autoload.php')) {
    require_once __DIR__ . '/vendor/autoload.php';
} else {
    foreach (['Symfony/Component/Lock/autoload.php', 'Illuminate/Cache/autoload.php', 'Illuminate/Redis/autoload.php'] as $file) {
        if (($path = stream_resolve_include_path($file)) !== false) {
            require_once $path;
        }
    }
}
spl_autoload_register(function (string $class): void {
    if (str_starts_with($class, 'RedisLock\\Bridge\\')) {
        $file = __DIR__ . '/../bridge/src/' . strtr(substr($class, strlen('RedisLock\\Bridge\\')), '\\', '/') . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});

use Symfony\Component\Lock\LockFactory;

const STAMPEDE_NEEDS = [
    'none' => [],
    'ext' => [RedisLock::class],
    'symfony-bridge' => [LockFactory::class, RedisLock\Bridge\Symfony\RedisLockStore::class],
    'laravel-bridge' => [RedisLock\Bridge\Laravel\RedisLockStore::class, Illuminate\Cache\ArrayStore::class],
    'symfony-redisstore' => [LockFactory::class, Symfony\Component\Lock\Store\RedisStore::class],
    'laravel-redis' => [Illuminate\Cache\PhpRedisLock::class, Illuminate\Redis\Connections\PhpRedisConnection::class],
    'ext-once' => [RedisLock::class],
    'ext-swr' => [RedisLock::class],
];

function stampede_missing(string $variant): ?string
{
    if (!isset(STAMPEDE_NEEDS[$variant])) {
        return "unknown variant $variant";
    }
    foreach (STAMPEDE_NEEDS[$variant] as $class) {
        if (!class_exists($class)) {
            return "class $class not found";
        }
    }
    return null;
}

/** Takes lock $name for 10 s, waiting up to $wait s; the release function. Throws when not had. */
function stampede_lock(string $variant, Redis $redis, string $server, string $name, float $wait): Closure
{
    switch ($variant) {
        case 'none':
            return fn() => null;

        case 'ext':
            $locker = new RedisLock($server);
            $token = $locker->lock($name, 10000, $wait) ?? throw new RuntimeException("lock() timed out after $wait s");
            return fn() => $locker->unlock($name, $token) || throw new RuntimeException('unlock() found the lock gone');

        case 'symfony-bridge':
            $store = new RedisLock\Bridge\Symfony\RedisLockStore(new RedisLock($server, ['reentrant' => false]));
            $lock = (new LockFactory($store))->createLock($name, 10);
            $lock->acquire(true); // the store is a BlockingStoreInterface: waitAndSave(), woken at release
            return fn() => $lock->release();

        case 'symfony-redisstore':
            $lock = (new LockFactory(new Symfony\Component\Lock\Store\RedisStore($redis)))->createLock($name, 10);
            $lock->acquire(true); // Lock::acquire() retries save() every 100 +- 10 ms
            return fn() => $lock->release();

        case 'laravel-bridge':
            // The second locker (auto_extend, for locks without expiry) is not used by a lock of 10 s.
            $locker = new RedisLock($server, ['reentrant' => false]);
            $store = new RedisLock\Bridge\Laravel\RedisLockStore(new Illuminate\Cache\ArrayStore(), $locker, $locker);
            $lock = $store->lock($name, 10);
            $lock->block($wait); // woken at release; throws LockTimeoutException
            return fn() => $lock->release() || throw new RuntimeException('release() found the lock gone');

        case 'laravel-redis':
            $lock = new Illuminate\Cache\PhpRedisLock(new Illuminate\Redis\Connections\PhpRedisConnection($redis), $name, 10);
            $lock->block($wait); // Lock::block() retries every 250 ms; throws LockTimeoutException
            return fn() => $lock->release() || throw new RuntimeException('release() found the lock gone');
    }
    throw new InvalidArgumentException("unknown variant $variant");
}
