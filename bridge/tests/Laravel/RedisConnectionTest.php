<?php
declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Config\Repository as Config;
use RedisLock\Bridge\Laravel\RedisConnection;

require_once __DIR__ . '/LaravelTestCase.php';

/** A Redis connection of config/database.php read as Laravel's clients read it. */
final class RedisConnectionTest extends LaravelTestCase
{
    protected function setUp(): void
    {
        parent::setUp();
        if (!bridge_framework('Illuminate/Config/autoload.php')) {
            $this->markTestSkipped('Laravel\'s illuminate/config is not installed (Debian: php-illuminate-config)');
        }
    }

    private static function read(array $redis, string $name = 'default'): RedisConnection
    {
        return RedisConnection::fromConfig(new Config(['database' => ['redis' => $redis]]), $name, 'cache.stores.locks.lock_connection');
    }

    public function testHostPortDatabaseAndCredentials(): void
    {
        $c = self::read(['default' => ['host' => 'redis.internal', 'port' => '6380', 'database' => '2',
                                       'username' => 'app', 'password' => 'pw', 'prefix' => 'p_']]);
        $this->assertSame('default', $c->name);
        $this->assertSame('redis.internal:6380', $c->server);
        $this->assertSame(['prefix' => 'p_', 'username' => 'app', 'password' => 'pw', 'database' => 2], $c->options);
        $this->assertSame('127.0.0.1:6379', self::read(['default' => []])->server, 'Laravel\'s defaults');
        $this->assertSame(['prefix' => ''], self::read(['default' => ['password' => null, 'database' => null]])->options);
    }

    public function testTheUrlOverTheOtherKeys(): void
    {
        $c = self::read(['default' => ['url' => 'rediss://u%40x:p%3Aw@cache.internal:6390/3', 'host' => 'ignored', 'password' => 'ignored']]);
        $this->assertSame('tls://cache.internal:6390', $c->server);
        $this->assertSame(['prefix' => '', 'username' => 'u@x', 'password' => 'p:w', 'database' => 3], $c->options);
        $this->assertSame('10.0.0.5:6379', self::read(['default' => ['url' => 'redis://10.0.0.5', 'password' => 'kept']])->server);
        $this->assertSame('kept', self::read(['default' => ['url' => 'redis://10.0.0.5', 'password' => 'kept']])->options['password']);
    }

    public function testSchemesSocketsAndIpv6(): void
    {
        $this->assertSame('tls://h:6379', self::read(['default' => ['host' => 'h', 'scheme' => 'tls']])->server);
        $this->assertSame('tls://h:6379', self::read(['default' => ['host' => 'tls://h']])->server);
        $this->assertSame(['host' => '/run/redis.sock'], self::read(['default' => ['host' => '/run/redis.sock', 'port' => 0]])->server);
        $this->assertSame(['host' => '/run/redis.sock'], self::read(['default' => ['host' => 'unix:///run/redis.sock']])->server);
        $this->assertSame('[::1]:6379', self::read(['default' => ['host' => '::1']])->server);
    }

    public function testThePrefixAsEachClientTakesIt(): void
    {
        $redis = ['options' => ['prefix' => 'global_'], 'default' => ['prefix' => 'conn_', 'options' => ['prefix' => 'own_']]];
        $this->assertSame('own_', self::read($redis)->options['prefix'], 'phpredis: the connection\'s options first');
        $this->assertSame('conn_', self::read(['client' => 'predis'] + $redis)->options['prefix'], 'predis: its prefix key first');
        $this->assertSame('global_', self::read(['options' => ['prefix' => 'global_'], 'default' => ['prefix' => 'conn_']])->options['prefix']);
        $this->assertSame('conn_', self::read(['default' => ['prefix' => 'conn_']])->options['prefix']);
    }

    /** @dataProvider badConnections (PHPUnit 9.6; 10+ reads the attribute) */
    #[\PHPUnit\Framework\Attributes\DataProvider('badConnections')]
    public function testABadConnectionIsAClearException(array $redis, string $expected): void
    {
        try {
            self::read($redis);
            $this->fail('accepted');
        } catch (\InvalidArgumentException $e) {
            $this->assertStringContainsString($expected, $e->getMessage());
            $this->assertStringNotContainsString('s3cret', $e->getMessage());
        }
    }

    public static function badConnections(): array
    {
        return [
            'none' => [[], 'names the Redis connection [default], which is not in database.redis'],
            'not an array' => [['default' => 'redis://h'], 'which is not in database.redis'],
            'a URL without a host' => [['default' => ['url' => 'redis:///0?password=s3cret']], 'database.redis.default.url is not a redis:// URL'],
            'another scheme' => [['default' => ['url' => 'mysql://u:s3cret@h']], 'database.redis.default.url must be a redis://'],
            'a bad port' => [['default' => ['port' => 'six']], 'database.redis.default.port must be a port number'],
            'a port too big' => [['default' => ['port' => 70000]], 'database.redis.default.port must be a port number'],
            'an empty host' => [['default' => ['host' => '']], 'database.redis.default.host must be'],
            'a bad database' => [['default' => ['database' => 'one']], 'database.redis.default.database must be a number'],
            'a password not a string' => [['default' => ['password' => ['s3cret']]], 'database.redis.default.password must be a string'],
            'a prefix not a string' => [['default' => ['options' => ['prefix' => 1]]], 'the key prefix of database.redis.default must be a string'],
        ];
    }
}
