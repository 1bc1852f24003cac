<?php

/*
 * The bridge suites' bootstrap: the frameworks from Debian's packages (their
 * autoloaders, on PHP's include path), the bridge's own classes (PSR-4, as
 * Composer would load them), and one throwaway redis-server on a free
 * loopback port for the whole run, stopped by its pid at the end.
 *
 * Env: REDISLOCK_BRIDGE_REDIS "host:port" of a server to use instead of
 * starting one; REDISLOCK_TEST_REDIS_SERVER the redis-server binary.
 */
declare(strict_types=1);

if (!extension_loaded('redislock')) {
    fwrite(STDERR, "the bridge suites need the redislock extension loaded (php -d extension=...)\n");
    exit(1);
}

spl_autoload_register(static function (string $class): void {
    foreach (['RedisLock\\Bridge\\Tests\\' => __DIR__ . '/', 'RedisLock\\Bridge\\' => dirname(__DIR__) . '/src/'] as $prefix => $dir) {
        if (strncmp($class, $prefix, strlen($prefix)) === 0) {
            $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
            if (is_file($file)) {
                require $file;
            }
            return;
        }
    }
});

/** Loads a Debian package's autoloader; false when the package is not installed. */
function bridge_framework(string $autoload): bool
{
    if (stream_resolve_include_path($autoload) === false) {
        return false;
    }
    require_once $autoload;
    return true;
}

require_once __DIR__ . '/RedisServer.php';
register_shutdown_function([RedisLock\Bridge\Tests\RedisServer::class, 'stopAll']);
