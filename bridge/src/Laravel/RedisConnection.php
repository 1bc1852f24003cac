<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Laravel;

use Illuminate\Contracts\Config\Repository as Config;
use InvalidArgumentException;

/**
 * A Redis connection of config/database.php ('database.redis.<name>') as
 * the extension takes it: the server, the credentials and the database,
 * and the key prefix that Laravel's client puts in front of every key.
 * Read as the application's Laravel version reads it (the newest without
 * the framework): a string is a URL; the URL's query, then the URL, over
 * the other keys (a URL without a scheme keeps the 'scheme'); with
 * phpredis the global options, then the connection's, over the keys. The
 * prefix is the connection's 'prefix', else its 'options.prefix', else the
 * global 'options.prefix' (predis always, phpredis from Laravel 9.12 on;
 * before, the options' came first). A user name counts with a password
 * only (phpredis: from 9.6 on), and a password may be [user, password].
 *
 * A tls:// connection's certificates and checks come with it: phpredis's
 * 'context' => ['stream' => [...]] or predis's 'ssl', as the client reads
 * them ('database.redis.client').
 *
 * Refused, with the reason: a replicated or Sentinel connection (a list
 * of servers), and a serializer or compression on the connection (Laravel's
 * locks on it store the owner encoded, ours store it as it is: neither
 * could release the other's lock during a switch).
 *
 * Messages name the config key at fault and never show a value: a URL may
 * hold a password.
 */
final class RedisConnection
{
    /**
     * @param string|array{host: string} $server "host:port", "tls://host:port", or a unix socket's ['host' => path]
     * @param array<string, mixed> $options the extension's username, password, database and prefix
     */
    private function __construct(
        public readonly string $name,
        public readonly string|array $server,
        public readonly array $options,
    ) {
    }

    /**
     * @param ?string $laravel the version whose reading to follow (default: the application's, else the newest)
     * @throws InvalidArgumentException $name is no usable connection ($key: the config key that named it)
     */
    public static function fromConfig(Config $config, string $name, string $key, ?string $laravel = null): self
    {
        $redis = $config->get('database.redis');
        $at = "database.redis.$name";
        if (
            !is_array($redis) || in_array($name, ['client', 'options', 'clusters'], true)
            || !(is_array($redis[$name] ?? null) || is_string($redis[$name] ?? null))
        ) {
            if (is_array($redis) && is_array($redis['clusters'][$name] ?? null)) {
                throw new InvalidArgumentException(
                    "$key names [$name], a Redis Cluster of database.redis.clusters: give its nodes as servers instead"
                );
            }
            throw new InvalidArgumentException(
                "$key names the Redis connection [$name], which is not in database.redis"
            );
        }
        $global = is_array($redis['options'] ?? null) ? $redis['options'] : [];
        $connection = is_string($redis[$name]) ? ['url' => $redis[$name]] : $redis[$name];
        $own = is_array($connection['options'] ?? null) ? $connection['options'] : [];
        if (array_key_exists(0, $connection) || isset($own['replication']) || isset($global['replication'])) {
            throw new InvalidArgumentException(
                "$key names [$name], a replicated or Sentinel connection: give its servers as servers instead"
            );
        }
        $connection = self::withUrl($connection, $at);
        $own = is_array($connection['options'] ?? null) ? $connection['options'] : []; /* a URL's query may give them */
        foreach (['serializer', 'compression'] as $encoding) {
            if (!empty($own[$encoding] ?? $global[$encoding] ?? $connection[$encoding] ?? null)) {
                throw new InvalidArgumentException("$key names [$name], whose $encoding Laravel's locks apply to their"
                    . " owner and the extension's do not: name a connection without it, or give servers");
            }
        }
        $laravel ??= self::laravelVersion();
        $phpredis = ($redis['client'] ?? 'phpredis') !== 'predis';
        $prefix = $connection['prefix'] ?? $own['prefix'] ?? $global['prefix'] ?? '';
        if ($phpredis) {
            /* phpredis's connector merges the global options, then the
             * connection's, over the connection's keys; before 9.12 the
             * prefix too, so an options prefix came first */
            if (self::before($laravel, '9.12')) {
                $prefix = $own['prefix'] ?? $global['prefix'] ?? $connection['prefix'] ?? '';
            }
            $connection = array_merge($connection, $global, $own);
            /* it sets a prefix and sends AUTH only for a value not empty() */
            $prefix = empty($prefix) ? '' : $prefix;
            $connection['password'] = empty($connection['password']) ? null : $connection['password'];
            if (isset($connection['context']['auth'])) {
                throw new InvalidArgumentException(
                    "$at.context.auth is not read: give the connection's username and password"
                );
            }
        }
        $prefix = is_int($prefix) || is_float($prefix) ? (string) $prefix : $prefix; /* a URL query's number */
        if (!is_string($prefix)) {
            throw new InvalidArgumentException("the key prefix of $at must be a string");
        }
        /* phpredis took a user name from 9.6 on */
        $options = ['prefix' => $prefix] + self::credentials(
            $connection,
            $at,
            $phpredis,
            $phpredis && self::before($laravel, '9.6')
        );
        $database = $connection['database'] ?? null;
        if ($database !== null && $database !== '') {
            if (!is_int($database) && !(is_string($database) && ctype_digit($database))) {
                throw new InvalidArgumentException("$at.database must be a number");
            }
            $options['database'] = (int) $database;
        }
        /* phpredis (5.3.2 on) talks TLS to a host without a scheme when
         * its connect() has a stream context: Laravel gives it the context's
         * 'stream', from 13.5 on any context (as its 'stream') */
        $context = $phpredis ? $connection['context'] ?? null : null;
        $streamed = is_array($context) && (is_array($context['stream'] ?? null) || !self::before($laravel, '13.5'));
        $server = self::server($connection, $at, $streamed);
        if (is_string($server) && str_starts_with($server, 'tls://')) {
            $tls = self::tls($connection, $phpredis, $at);
            if ($tls !== []) {
                $options['tls'] = $tls;
            }
        }
        return new self($name, $server, $options);
    }

    /** PHP's ssl context names that the extension's 'tls' option takes (docs/topologies.md#tls). */
    private const TLS_KEYS = [
        'cafile', 'capath', 'local_cert', 'local_pk', 'passphrase', 'verify_peer', 'verify_peer_name', 'peer_name',
    ];

    /** The application's Laravel version; null (read as the newest) for Laravel's components without the framework. */
    private static function laravelVersion(): ?string
    {
        $application = 'Illuminate\\Foundation\\Application';
        return class_exists($application) && defined("$application::VERSION")
            ? (string) constant("$application::VERSION")
            : null;
    }

    private static function before(?string $laravel, string $version): bool
    {
        return $laravel !== null && version_compare($laravel, $version, '<');
    }

    /**
     * The TLS settings of a tls:// connection, where Laravel's client takes
     * them: phpredis's 'context' (['stream' => [...]]; from 13.5 on also
     * ['ssl' => [...]] or the settings themselves), predis's 'ssl'.
     * A setting the extension does not take is refused by name rather than
     * dropped: the connection would not be what its config says (a cipher
     * list not applied, a peer fingerprint not checked);
     * 'allow_self_signed' is dropped only beside 'verify_peer' => false,
     * where no certificate is checked at all.
     */
    private static function tls(#[\SensitiveParameter] array $connection, bool $phpredis, string $at): array
    {
        [$key, $given] = $phpredis ? ['context', $connection['context'] ?? null] : ['ssl', $connection['ssl'] ?? null];
        if ($given === null) {
            return [];
        }
        if ($phpredis && is_array($given)) {
            if (isset($given['stream'])) {
                [$key, $given] = ['context.stream', $given['stream']];
            } elseif (is_array($given['ssl'] ?? null)) {
                [$key, $given] = ['context.ssl', $given['ssl']];
            }
        }
        if (!is_array($given)) {
            throw new InvalidArgumentException("$at.$key must be an array of TLS settings");
        }
        $tls = [];
        foreach ($given as $name => $value) {
            if ($name === 'allow_self_signed' && ($given['verify_peer'] ?? true) === false) {
                continue;
            }
            if (!in_array($name, self::TLS_KEYS, true)) {
                throw new InvalidArgumentException("$at.$key." . (is_string($name) ? $name : '(a list entry)')
                    . ' is not a TLS setting the extension takes; it takes ' . implode(', ', self::TLS_KEYS));
            }
            $tls[$name] = $value;
        }
        return $tls;
    }

    /** @return array{username?: string, password?: string} a user name only with a password, as Laravel sends AUTH */
    private static function credentials(
        #[\SensitiveParameter] array $connection,
        string $at,
        bool $phpredis,
        bool $noUsername
    ): array {
        $password = $connection['password'] ?? null;
        $username = $noUsername ? null : $connection['username'] ?? null;
        if (is_array($password) && array_is_list($password) && count($password) === 2) {
            [$username, $password] = $password; /* phpredis's AUTH [user, password] */
        }
        if (is_int($password) || is_float($password)) {
            /* a URL's digits, a number once decoded as Laravel decodes it:
             * AUTH sends them, and Laravel's phpredis then no user name */
            $password = (string) $password;
            $username = $phpredis ? null : $username;
        }
        $username = is_int($username) ? (string) $username : $username;
        if ($password === null || $password === '') {
            return [];
        }
        if (!is_string($password)) {
            throw new InvalidArgumentException("$at.password must be a string or [user, password]");
        }
        if ($username === null || $username === '') {
            return ['password' => $password];
        }
        if (!is_string($username)) {
            throw new InvalidArgumentException("$at.username must be a string");
        }
        return ['username' => $username, 'password' => $password];
    }

    /**
     * The connection's keys with those of its 'url' and then its query over them (as Laravel's ConfigurationUrlParser
     * does).
     */
    private static function withUrl(#[\SensitiveParameter] array $connection, string $at): array
    {
        $url = $connection['url'] ?? null;
        if ($url === null || $url === '') {
            return $connection;
        }
        $parts = is_string($url) ? parse_url($url) : false;
        if ($parts === false || !isset($parts['host'])) {
            throw new InvalidArgumentException("$at.url is not a redis:// URL with a host");
        }
        $scheme = isset($parts['scheme']) ? strtolower($parts['scheme']) : null;
        if ($scheme !== null && !in_array($scheme, ['redis', 'rediss', 'tcp', 'tls'], true)) {
            throw new InvalidArgumentException(
                "$at.url must be a redis://, rediss://, tcp:// or tls:// URL, as Laravel reads it"
            );
        }
        $host = rawurldecode($parts['host']);
        if (str_starts_with($host, '[') && str_ends_with($host, ']')) {
            $host = substr($host, 1, -1); /* an IPv6 address */
        }
        $fromUrl = ['host' => $host];
        if ($scheme !== null) { /* a URL without one keeps the connection's 'scheme' */
            $fromUrl['scheme'] = in_array($scheme, ['rediss', 'tls'], true) ? 'tls' : 'tcp';
        }
        if (isset($parts['port'])) {
            $fromUrl['port'] = $parts['port'];
        }
        if (isset($parts['user'])) {
            $fromUrl['username'] = self::native(rawurldecode($parts['user']));
        }
        if (isset($parts['pass'])) {
            $fromUrl['password'] = self::native(rawurldecode($parts['pass']));
        }
        $path = trim($parts['path'] ?? '', '/');
        if ($path !== '') {
            $fromUrl['database'] = self::native($path);
        }
        parse_str($parts['query'] ?? '', $query);
        return self::native($query) + array_filter($fromUrl, static fn ($v) => $v !== null) + $connection;
    }

    /**
     * A URL's string as Laravel's URL parser gives it: the value a JSON reading of it is (123, null, true), else
     * itself.
     */
    private static function native(#[\SensitiveParameter] mixed $value): mixed
    {
        if (is_array($value)) {
            return array_map(self::native(...), $value);
        }
        $decoded = json_decode($value, true);
        return json_last_error() === JSON_ERROR_NONE ? $decoded : $value;
    }

    /** @return string|array{host: string} */
    /** @param bool $streamed phpredis's connect() has a stream context: TLS without a scheme */
    private static function server(#[\SensitiveParameter] array $connection, string $at, bool $streamed): string|array
    {
        $host = $connection['host'] ?? '127.0.0.1';
        if (!is_string($host) || $host === '') {
            throw new InvalidArgumentException("$at.host must be a host name, an address or a unix socket path");
        }
        $scheme = $connection['scheme'] ?? null;
        if ($scheme !== null && !is_string($scheme)) {
            throw new InvalidArgumentException("$at.scheme must be tcp, tls or unix");
        }
        if (preg_match('#^([a-z][a-z0-9.+-]*)://(.*)$#i', $host, $m)) { /* phpredis takes a scheme in the host too */
            if ($scheme !== null && strcasecmp($scheme, $m[1]) !== 0) {
                throw new InvalidArgumentException("$at.host's scheme and $at.scheme differ (Laravel refuses it too)");
            }
            [$scheme, $host] = [$m[1], $m[2]];
        }
        $scheme = self::transport($scheme ?? ($streamed ? 'tls' : null), $at);
        if ($scheme === 'unix' || str_starts_with($host, '/')) {
            /* predis: 'path' */
            $path = $scheme === 'unix' && is_string($connection['path'] ?? null) ? $connection['path'] : $host;
            if (!str_starts_with($path, '/')) {
                throw new InvalidArgumentException("$at.path must be a unix socket's absolute path");
            }
            return ['host' => $path];
        }
        $port = $connection['port'] ?? 6379;
        if (!(is_int($port) || (is_string($port) && ctype_digit($port))) || (int) $port < 1 || (int) $port > 65535) {
            throw new InvalidArgumentException("$at.port must be a port number");
        }
        $address = (str_contains($host, ':') ? "[$host]" : $host) . ':' . (int) $port;
        return $scheme === 'tls' ? "tls://$address" : $address;
    }

    /**
     * tcp, tls or unix, of the schemes phpredis's and predis's connections take: never a TLS one read as plain text.
     */
    private static function transport(?string $scheme, string $at): string
    {
        $scheme = strtolower($scheme ?? 'tcp');
        if (in_array($scheme, ['tcp', 'redis', 'unix'], true)) {
            return $scheme === 'redis' ? 'tcp' : $scheme;
        }
        if (in_array($scheme, ['tls', 'ssl', 'rediss'], true) || preg_match('/^tlsv1\.[0-3]$/', $scheme)) {
            return 'tls';
        }
        throw new InvalidArgumentException("$at.scheme must be tcp, tls or unix (or redis, rediss, ssl, tlsv1.x)");
    }
}
