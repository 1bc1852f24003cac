<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use InvalidArgumentException;
use RedisLock\Bridge\Laravel\RedisLockServiceProvider;
use RedisLockConnectionException;
use RlTestPki;
use RlTestTlsServer;

require_once __DIR__ . '/LaravelTestCase.php';
require_once __DIR__ . '/../../../tests/tls.inc'; // RlTestPki, rl_tls_server(): openssl-made certificates, a TLS redis-server

/**
 * A lock_connection on tls:// locks over TLS with the connection's own
 * certificates and checks, where Laravel's client reads them: phpredis's
 * 'context' => ['stream' => [...]], predis's 'ssl'.
 */
final class TlsLockConnectionTest extends LaravelTestCase
{
    private const PASSPHRASE = 's3cret-Passphrase'; // tests/tls.inc's encrypted client key

    private static ?RlTestPki $pki = null;
    private static ?RlTestTlsServer $tls = null;

    protected function setUp(): void
    {
        parent::setUp();
        $this->needsContainer();
        if (!rl_which('openssl')) {
            $this->markTestSkipped('the openssl CLI is not installed');
        }
        self::$pki ??= new RlTestPki();
        self::$tls ??= rl_tls_server(self::$pki, ['--tls-auth-clients', 'yes']);
    }

    public static function tearDownAfterClass(): void
    {
        self::$tls = self::$pki = null; // the server stopped by its pid, the certificates removed
    }

    public function testPhpredisContextAndPredisSslCarryTheCertificates(): void
    {
        $mutual = ['cafile' => self::$pki->path('ca.crt'), 'local_cert' => self::$pki->path('client.crt'),
                   'local_pk' => self::$pki->path('client-enc.key'), 'passphrase' => self::PASSPHRASE];
        foreach (['phpredis' => ['context' => ['stream' => $mutual]], 'predis' => ['ssl' => $mutual]] as $client => $settings) {
            $name = $this->uniqueName();
            $lock = $this->locks($client, $settings)->lock($name, 10);
            $this->assertTrue($lock->get(), "$client's settings");
            $this->assertSame(
                $lock->owner(),
                self::$tls->client()->get("p_$name"),
                'on the TLS server, under the connection\'s prefix'
            );
            $this->assertTrue($lock->release());
        }
        $url = $this->locks(
            'phpredis',
            ['url' => 'rediss://127.0.0.1:' . self::$tls->tlsPort, 'context' => ['stream' => $mutual]]
        );
        $this->assertTrue($url->lock($this->uniqueName(), 10)->get(), 'a rediss:// URL with the context beside it');
    }

    public function testWithoutTheConnectionsCaTheServerIsNotTrusted(): void
    {
        $settings = ['context' => ['stream' => ['cafile' => self::$pki->path('other-ca.crt'), 'local_cert' => self::$pki->path('client.crt'),
                                                'local_pk' => self::$pki->path('client-enc.key'), 'passphrase' => self::PASSPHRASE]]];
        try {
            $this->locks('phpredis', $settings)->lock($this->uniqueName(), 10)->get();
            $this->fail('trusted a server certificate of another CA');
        } catch (RedisLockConnectionException $e) {
            $this->assertStringContainsString('certificate verify failed', $e->getMessage());
            $this->assertStringContainsString((string) self::$tls->tlsPort, $e->getMessage(), 'names the node');
            $this->assertStringNotContainsString(self::PASSPHRASE, $e->getMessage());
        }
    }

    public function testVerifyPeerOffAllowsSelfSignedAndAnUnknownSettingIsRefusedByName(): void
    {
        $unchecked = ['context' => ['stream' => ['verify_peer' => false, 'allow_self_signed' => true,
            'local_cert' => self::$pki->path('client.crt'), 'local_pk' => self::$pki->path('client.key')]]];
        $this->assertTrue(
            $this->locks('phpredis', $unchecked)->lock($this->uniqueName(), 10)->get(),
            'allow_self_signed is moot without verify_peer'
        );

        /* the passphrase travels in arrays only, which a trace's string never shows: the message is what could */
        foreach (
            ['phpredis' => ['context' => ['stream' => ['ciphers' => 'HIGH', 'passphrase' => self::PASSPHRASE]]],
                  'predis' => ['ssl' => ['allow_self_signed' => true, 'passphrase' => self::PASSPHRASE]]] as $client => $settings
        ) {
            try {
                $this->locks($client, $settings);
                $this->fail("$client: accepted a TLS setting the extension does not take");
            } catch (InvalidArgumentException $e) {
                $key = $client === 'predis' ? 'ssl.allow_self_signed' : 'context.stream.ciphers';
                $this->assertStringContainsString(
                    "database.redis.tls.$key is not a TLS setting the extension takes",
                    $e->getMessage()
                );
                $this->assertStringNotContainsString(self::PASSPHRASE, $e->getMessage());
            }
        }
    }

    /** The 'locks' store on database.redis.tls: the TLS server with $settings, as $client reads them. */
    private function locks(string $client, array $settings): \Illuminate\Contracts\Cache\Repository
    {
        $app = new Container();
        $app->instance('config', new Config([
            'cache' => ['default' => 'array', 'prefix' => '', 'stores' => [
                'array' => ['driver' => 'array'],
                'locks' => ['driver' => 'redislock', 'store' => 'array', 'lock_connection' => 'tls'],
            ]],
            'database' => ['redis' => [
                'client' => $client,
                'tls' => $settings + ['scheme' => 'tls', 'host' => '127.0.0.1', 'port' => self::$tls->tlsPort, 'prefix' => 'p_'],
            ]],
        ]));
        $app->singleton('cache', fn (Container $app): CacheManager => new CacheManager($app));
        (new RedisLockServiceProvider($app))->register();
        return $app['cache']->store('locks');
    }
}
