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

    private static function read(array $redis, string $name = 'default', ?string $laravel = null): RedisConnection
    {
        return RedisConnection::fromConfig(
            new Config(['database' => ['redis' => $redis]]),
            $name,
            'cache.stores.locks.lock_connection',
            $laravel
        );
    }

    public function testHostPortDatabaseAndCredentials(): void
    {
        $c = self::read(['default' => ['host' => 'redis.internal', 'port' => '6380', 'database' => '2',
                                       'username' => 'app', 'password' => 'pw', 'prefix' => 'p_']]);
        $this->assertSame('default', $c->name);
        $this->assertSame('redis.internal:6380', $c->server);
        $this->assertSame(['prefix' => 'p_', 'username' => 'app', 'password' => 'pw', 'database' => 2], $c->options);
        $this->assertSame('127.0.0.1:6379', self::read(['default' => []])->server, 'Laravel\'s defaults');
        $this->assertSame(
            ['prefix' => ''],
            self::read(['default' => ['password' => null, 'database' => null]])->options
        );
    }

    public function testTheUrlOverTheOtherKeys(): void
    {
        $c = self::read(['default' => ['url' => 'rediss://u%40x:p%3Aw@cache.internal:6390/3', 'host' => 'ignored', 'password' => 'ignored']]);
        $this->assertSame('tls://cache.internal:6390', $c->server);
        $this->assertSame(['prefix' => '', 'username' => 'u@x', 'password' => 'p:w', 'database' => 3], $c->options);
        $this->assertSame(
            '10.0.0.5:6379',
            self::read(['default' => ['url' => 'redis://10.0.0.5', 'password' => 'kept']])->server
        );
        $this->assertSame(
            'kept',
            self::read(['default' => ['url' => 'redis://10.0.0.5', 'password' => 'kept']])->options['password']
        );
    }

    public function testSchemesSocketsAndIpv6(): void
    {
        $this->assertSame('tls://h:6379', self::read(['default' => ['host' => 'h', 'scheme' => 'tls']])->server);
        $this->assertSame('tls://h:6379', self::read(['default' => ['host' => 'tls://h']])->server);
        $this->assertSame(
            ['host' => '/run/redis.sock'],
            self::read(['default' => ['host' => '/run/redis.sock', 'port' => 0]])->server
        );
        $this->assertSame(
            ['host' => '/run/redis.sock'],
            self::read(['default' => ['host' => 'unix:///run/redis.sock']])->server
        );
        $this->assertSame('[::1]:6379', self::read(['default' => ['host' => '::1']])->server);
        $this->assertSame('[::1]:6380', self::read(['default' => ['url' => 'redis://[::1]:6380']])->server);
        $this->assertSame(
            ['host' => '/run/redis.sock'],
            self::read(['default' => ['scheme' => 'unix', 'path' => '/run/redis.sock']])->server,
            'predis\'s form'
        );
    }

    /**
     * The TLS settings where the client reads them, on a tls:// connection only (tls:// ends in TlsLockConnectionTest).
     */
    public function testTlsSettingsAsTheClientReadsThem(): void
    {
        $ca = ['cafile' => '/etc/ssl/ca.crt', 'peer_name' => 'cache.internal'];
        $this->assertSame($ca, self::read(['default' => ['scheme' => 'tls', 'context' => ['stream' => $ca], 'ssl' => ['capath' => '/x']]])->options['tls']);
        $this->assertSame($ca, self::read(['client' => 'predis', 'default' => ['url' => 'tls://h', 'ssl' => $ca, 'context' => ['stream' => []]]])->options['tls']);
        // phpredis talks TLS to a host without a scheme when it is given a stream context
        $streamed = self::read(['default' => ['host' => 'h', 'context' => ['stream' => $ca]]], 'default', '8.83.26');
        $this->assertSame(['tls://h:6379', $ca], [$streamed->server, $streamed->options['tls']]);
        $this->assertSame(
            'h:6379',
            self::read(['default' => ['host' => 'h', 'context' => $ca]], 'default', '13.4.0')->server,
            'no stream before 13.5'
        );
        $this->assertSame(
            'tls://h:6379',
            self::read(['default' => ['host' => 'h', 'context' => $ca]], 'default', '13.5.0')->server
        );
        $this->assertArrayNotHasKey(
            'tls',
            self::read(['default' => ['host' => 'h', 'scheme' => 'tcp', 'context' => ['stream' => $ca]]])->options,
            'tcp://'
        );
        $this->assertArrayNotHasKey(
            'tls',
            self::read(['client' => 'predis', 'default' => ['host' => 'h', 'context' => ['stream' => $ca]]])->options,
            'predis'
        );
        $this->assertArrayNotHasKey(
            'tls',
            self::read(['default' => ['url' => 'rediss://h']])->options,
            'the system\'s CAs'
        );
        $this->assertSame(['verify_peer' => false], self::read(['default' => ['scheme' => 'tls',
            'context' => ['stream' => ['verify_peer' => false, 'allow_self_signed' => true]]]])->options['tls']);
        // Laravel 13.5's forms of the phpredis context, and a context in the options (merged over the keys)
        $this->assertSame(
            $ca,
            self::read(['default' => ['scheme' => 'tls', 'context' => ['ssl' => $ca]]])->options['tls']
        );
        $this->assertSame($ca, self::read(['default' => ['scheme' => 'tls', 'context' => $ca]])->options['tls']);
        $this->assertSame($ca, self::read(['options' => ['context' => ['stream' => $ca]], 'default' => ['scheme' => 'tls']])->options['tls']);
        // the TLS transports phpredis and predis take
        foreach (['ssl', 'SSL', 'rediss', 'tlsv1.2'] as $scheme) {
            $this->assertSame(
                'tls://h:6379',
                self::read(['default' => ['host' => 'h', 'scheme' => $scheme]])->server,
                $scheme
            );
            $this->assertSame(
                'tls://h:6379',
                self::read(['default' => ['host' => "$scheme://h"]])->server,
                "$scheme://h"
            );
        }
        $this->assertSame(
            'tls://h:6390',
            self::read(['default' => ['url' => 'h:6390', 'scheme' => 'tls']])->server,
            'a URL without a scheme'
        );
    }

    /**
     * Laravel before 9.12 (phpredis): the options merged over the keys, their prefix first; before 9.6 no user name.
     */
    public function testOlderLaravelsAsTheyReadIt(): void
    {
        $redis = ['options' => ['prefix' => 'global_'], 'default' => ['prefix' => 'conn_', 'username' => 'app', 'password' => 'pw']];
        $this->assertSame('global_', self::read($redis, 'default', '8.83.26')->options['prefix']);
        $this->assertSame('conn_', self::read($redis, 'default', '9.12.0')->options['prefix']);
        $this->assertSame(
            'conn_',
            self::read(['client' => 'predis'] + $redis, 'default', '8.83.26')->options['prefix'],
            'predis: the connection\'s first'
        );
        $this->assertSame(['prefix' => 'global_', 'password' => 'pw'], self::read($redis, 'default', '9.5.1')->options);
        $this->assertSame('app', self::read($redis, 'default', '9.6.0')->options['username']);
        $this->assertSame(
            'app',
            self::read(['client' => 'predis'] + $redis, 'default', '8.83.26')->options['username']
        );
        $this->assertSame(
            ['prefix' => '', 'username' => 'u', 'password' => 'pw'],
            self::read(['default' => ['password' => ['u', 'pw']]], 'default', '8.83.26')->options,
            'phpredis\'s AUTH [user, password]'
        );
    }

    /**
     * As Laravel 9.12+ (PhpRedisConnector and PredisConnector): the connection's prefix, its options', the global one.
     */
    public function testThePrefixAsLaravelTakesIt(): void
    {
        $redis = ['options' => ['prefix' => 'global_'], 'default' => ['prefix' => 'conn_', 'options' => ['prefix' => 'own_']]];
        $this->assertSame('conn_', self::read($redis)->options['prefix']);
        $this->assertSame('conn_', self::read(['client' => 'predis'] + $redis)->options['prefix']);
        $this->assertSame('own_', self::read(['options' => ['prefix' => 'global_'], 'default' => ['options' => ['prefix' => 'own_']]])->options['prefix']);
        $this->assertSame(
            'global_',
            self::read(['options' => ['prefix' => 'global_'], 'default' => []])->options['prefix']
        );
        $this->assertSame(
            'q_',
            self::read(['default' => ['url' => 'redis://h?prefix=q_&database=4', 'prefix' => 'conn_']])->options['prefix'],
            'a URL\'s query over the keys'
        );
    }

    public function testCredentialsAsLaravelSendsThem(): void
    {
        $this->assertSame(
            ['prefix' => ''],
            self::read(['default' => ['username' => 'app', 'password' => '']])->options,
            'a user name without a password is not sent'
        );
        $this->assertSame(
            ['prefix' => '', 'username' => 'app', 'password' => 'pw'],
            self::read(['default' => ['password' => ['app', 'pw']]])->options,
            'phpredis\'s [user, password]'
        );
        $this->assertSame(
            ['prefix' => '', 'password' => 'pw'],
            self::read(['default' => ['password' => 'pw']])->options
        );
        $this->assertSame(4, self::read(['default' => ['url' => 'redis://h?database=4']])->options['database']);
    }

    public function testAStringIsAUrl(): void
    {
        $c = self::read(['default' => 'redis://:pw@cache.internal:6390/2']);
        $this->assertSame('cache.internal:6390', $c->server);
        $this->assertSame(['prefix' => '', 'password' => 'pw', 'database' => 2], $c->options);
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
            'neither an array nor a URL' => [['default' => 6379], 'which is not in database.redis'],
            'a URL without a host' => [['default' => ['url' => 'redis:///0?password=s3cret']], 'database.redis.default.url is not a redis:// URL'],
            'another scheme' => [['default' => ['url' => 'mysql://u:s3cret@h']], 'database.redis.default.url must be a redis://'],
            'a bad port' => [['default' => ['port' => 'six']], 'database.redis.default.port must be a port number'],
            'a port too big' => [['default' => ['port' => 70000]], 'database.redis.default.port must be a port number'],
            'an empty host' => [['default' => ['host' => '']], 'database.redis.default.host must be'],
            'a bad database' => [['default' => ['database' => 'one']], 'database.redis.default.database must be a number'],
            'a password not a string' => [['default' => ['password' => ['s3cret']]], 'database.redis.default.password must be a string'],
            'a prefix not a string' => [['default' => ['options' => ['prefix' => ['p_']]]], 'the key prefix of database.redis.default must be a string'],
            'a Sentinel connection (predis)' => [['default' => ['tcp://10.0.0.1', 'tcp://10.0.0.2', 'options' => ['replication' => 'sentinel', 'service' => 'main']]],
                'a replicated or Sentinel connection: give its servers as servers'],
            'replication in the options' => [['default' => ['host' => 'h', 'options' => ['replication' => true]]], 'a replicated or Sentinel connection'],
            'a serializer' => [['default' => ['host' => 'h', 'options' => ['serializer' => 2]]], 'whose serializer Laravel\'s locks apply'],
            'a global compression' => [['options' => ['compression' => 'lz4'], 'default' => ['host' => 'h']], 'whose compression Laravel\'s locks apply'],
            'a serializer in the URL' => [['default' => ['url' => 'redis://h?serializer=1']], 'whose serializer Laravel\'s locks apply'],
            'a valkeys:// URL' => [['default' => ['url' => 'valkeys://h']], 'must be a redis://, rediss://, tcp:// or tls:// URL'],
            'a unix socket without a path' => [['default' => ['scheme' => 'unix', 'path' => 'redis.sock']], 'database.redis.default.path must be'],
            'a user name not a string' => [['default' => ['username' => ['s3cret'], 'password' => 'pw']], 'database.redis.default.username must be a string'],
            'TLS settings not an array' => [['default' => ['scheme' => 'tls', 'context' => ['stream' => 's3cret']]],
                'database.redis.default.context.stream must be an array of TLS settings'],
            'a TLS setting the extension does not take' => [['default' => ['scheme' => 'tls', 'context' => ['stream' => ['SNI_enabled' => true, 'passphrase' => 's3cret']]]],
                'database.redis.default.context.stream.SNI_enabled is not a TLS setting the extension takes; it takes cafile, capath'],
            'self-signed allowed with verify_peer on' => [['client' => 'predis', 'default' => ['scheme' => 'tls', 'ssl' => ['allow_self_signed' => true]]],
                'database.redis.default.ssl.allow_self_signed is not a TLS setting'],
            'a TLS settings list' => [['default' => ['url' => 'rediss://h', 'context' => ['stream' => ['s3cret']]]],
                'database.redis.default.context.stream.(a list entry) is not a TLS setting'],
            'another scheme' => [['default' => ['host' => 'h', 'scheme' => 'udp']], 'database.redis.default.scheme must be tcp, tls or unix'],
            'a scheme not a string' => [['default' => ['host' => 'h', 'scheme' => ['tls']]], 'database.redis.default.scheme must be tcp, tls or unix'],
            'the host\'s scheme against the scheme' => [['default' => ['host' => 'tcp://h', 'scheme' => 'tls']],
                'database.redis.default.host\'s scheme and database.redis.default.scheme differ'],
            'a phpredis context\'s auth' => [['default' => ['context' => ['auth' => ['u', 's3cret']]]],
                'database.redis.default.context.auth is not read: give the connection\'s username and password'],
            'a password of three' => [['default' => ['password' => ['a', 'b', 's3cret']]], 'database.redis.default.password must be a string or [user, password]'],
        ];
    }
}
