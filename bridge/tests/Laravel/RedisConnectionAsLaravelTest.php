<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use Illuminate\Redis\Connectors\PhpRedisConnector;
use Illuminate\Redis\RedisManager;
use RedisLock\Bridge\Laravel\RedisConnection;

require_once __DIR__ . '/LaravelTestCase.php';

/**
 * RedisConnection against the installed Laravel's own reading of the same
 * config: its RedisManager, URL parser and phpredis connector, stopped where
 * the connector would open its \Redis. Same server, database, prefix and
 * password, config by config; the version is Debian's package's.
 */
final class RedisConnectionAsLaravelTest extends LaravelTestCase
{
    private static ?string $version = null;

    protected function setUp(): void
    {
        parent::setUp();
        if (
            !bridge_framework('Illuminate/Redis/autoload.php') || !bridge_framework('Illuminate/Config/autoload.php')
            || !bridge_framework('Illuminate/Container/autoload.php')
        ) {
            $this->markTestSkipped('Laravel\'s illuminate/redis is not installed (Debian: php-illuminate-redis)');
        }
        self::$version ??= (string) preg_replace(
            '/[+~-].*$/',
            '',
            (string) shell_exec("dpkg-query -W -f '\${Version}' php-illuminate-redis 2>/dev/null")
        );
        if (!preg_match('/^\d+\.\d+/', self::$version)) {
            $this->markTestSkipped('the version of php-illuminate-redis is not known (dpkg-query)');
        }
    }

    /** @dataProvider configs (PHPUnit 9.6; 10+ reads the attribute) */
    #[\PHPUnit\Framework\Attributes\DataProvider('configs')]
    public function testReadAsTheInstalledLaravelReadsIt(array $redis): void
    {
        $redis += ['client' => 'phpredis'];
        $given = self::laravelGives($redis);
        $ours = RedisConnection::fromConfig(
            new Config(['database' => ['redis' => $redis]]),
            'default',
            'lock_connection',
            self::$version
        );

        $this->assertSame($given['server'], $ours->server, 'the server');
        $this->assertSame($given['prefix'], $ours->options['prefix'], 'the key prefix');
        $this->assertSame($given['database'], $ours->options['database'] ?? null, 'the database');
        $this->assertSame($given['password'], $ours->options['password'] ?? null, 'the password');
        $this->assertSame(
            $given['username'],
            $ours->options['username'] ?? null,
            'the user name (Laravel ' . self::$version . ')'
        );
    }

    public static function configs(): array
    {
        $server = ['host' => 'cache.internal', 'port' => 6380];
        return [
            'host, port, database, password' => [['default' => $server + ['database' => '2', 'password' => 'pw']]],
            'user name and password' => [['default' => $server + ['username' => 'app', 'password' => 'pw']]],
            'a URL with a query' => [['default' => ['url' => 'redis://u:pw@cache.internal:6390/1?database=3&prefix=q_', 'host' => 'x']]],
            'a query\'s port' => [['default' => ['url' => 'redis://cache.internal?port=6391']]],
            'a query\'s options' => [['default' => ['url' => 'redis://cache.internal:6390?options[prefix]=q_', 'options' => ['prefix' => 'o_']]]],
            'rediss://' => [['default' => ['url' => 'rediss://cache.internal:6390']]],
            'a URL without a scheme keeps the connection\'s' => [['default' => ['url' => 'cache.internal:6390', 'scheme' => 'tls']]],
            'a scheme in the host' => [['default' => ['host' => 'tls://cache.internal', 'port' => 6390]]],
            'the connection\'s prefix and the global one' => [['options' => ['prefix' => 'global_'], 'default' => $server + ['prefix' => 'own_']]],
            'the connection\'s options prefix and the global one' => [['options' => ['prefix' => 'global_'], 'default' => $server + ['options' => ['prefix' => 'opt_']]]],
            'all three prefixes' => [['options' => ['prefix' => 'global_'], 'default' => $server + ['prefix' => 'own_', 'options' => ['prefix' => 'opt_']]]],
            'a database in the options' => [['default' => $server + ['database' => 1, 'options' => ['database' => 4]]]],
            'a URL password of digits' => [['default' => ['url' => 'redis://alice:123456@cache.internal:6380']]],
            'a URL password "null"' => [['default' => ['url' => 'redis://alice:null@cache.internal:6380', 'password' => 'kept']]],
            'a URL user name of digits' => [['default' => ['url' => 'redis://123:pw@cache.internal:6380']]],
            'a URL password 0 and a query prefix of digits' => [['default' => ['url' => 'redis://:0@cache.internal:6380?prefix=123']]],
            'a stream context without a scheme' => [['default' => $server + ['context' => ['stream' => ['verify_peer' => false]]]]],
            'a stream context and tcp' => [['default' => $server + ['scheme' => 'tcp', 'context' => ['stream' => ['verify_peer' => false]]]]],
            'a prefix and a password "0"' => [['default' => $server + ['prefix' => '0', 'password' => '0']]],
            'a password in the global options' => [['options' => ['password' => 'global-pw'], 'default' => $server]],
        ];
    }

    /**
     * The transport phpredis takes for the host Laravel formats: tcp:// is
     * plain; a host without a scheme is TLS when connect() has a stream
     * context (phpredis 5.3.2 on), which Laravel gives from the context's
     * 'stream', from 13.5 on from any context.
     */
    private static function transport(string $host, mixed $context): string
    {
        if (str_contains($host, '://')) {
            return preg_replace('#^tcp://#i', '', $host);
        }
        $streamed = is_array($context) && (is_array($context['stream'] ?? null) || version_compare(self::$version, '13.5', '>='));
        return $streamed ? "tls://$host" : $host;
    }

    /** @return array{server: string, prefix: string, database: ?int, password: ?string, username: ?string} */
    private static function laravelGives(array $redis): array
    {
        $connector = new class extends PhpRedisConnector {
            public array $config = [];
            public string $host = '';

            protected function createClient(array $config)
            {
                $this->config = $config;
                $this->host = $this->formatHost($config);
                return new \stdClass(); // no \Redis: nothing connects
            }
        };
        unset($redis['client']); // the manager is given its driver apart, as Laravel's RedisServiceProvider does
        $manager = new RedisManager(new Container(), 'capture', $redis);
        $manager->extend('capture', fn () => $connector);
        $manager->resolve('default');

        $c = $connector->config;
        $password = empty($c['password']) ? null : $c['password'];
        $withUser = version_compare(self::$version, '9.6', '>=') && is_string($password) && ($c['username'] ?? '') !== '';
        return [
            'server' => self::transport($connector->host, $c['context'] ?? null) . ':' . $c['port'],
            'prefix' => empty($c['prefix']) ? '' : (string) $c['prefix'],
            'database' => isset($c['database']) ? (int) $c['database'] : null,
            'password' => is_int($password) || is_float($password) ? (string) $password : $password, // as AUTH sends it
            'username' => $withUser ? (string) $c['username'] : null,
        ];
    }
}
