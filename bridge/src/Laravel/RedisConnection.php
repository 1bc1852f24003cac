<?php
declare(strict_types=1);

namespace RedisLock\Bridge\Laravel;

use Illuminate\Contracts\Config\Repository as Config;
use InvalidArgumentException;

/**
 * A Redis connection of config/database.php ('database.redis.<name>') as
 * the extension takes it: the server, the credentials and the database,
 * and the key prefix that Laravel's client puts in front of every key.
 * Read as Laravel reads it: 'url' over the other keys; the prefix, for
 * phpredis, the connection's 'options.prefix', else the global
 * 'database.redis.options.prefix', else its 'prefix'; for predis the
 * connection's 'prefix' first.
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

    /** @throws InvalidArgumentException $name is no usable connection ($key: the config key that named it) */
    public static function fromConfig(Config $config, string $name, string $key): self
    {
        $redis = $config->get('database.redis');
        $at = "database.redis.$name";
        if (!is_array($redis) || in_array($name, ['client', 'options', 'clusters'], true) || !is_array($redis[$name] ?? null)) {
            if (is_array($redis) && is_array($redis['clusters'][$name] ?? null)) {
                throw new InvalidArgumentException(
                    "$key names [$name], a Redis Cluster of database.redis.clusters: give its nodes as servers instead");
            }
            throw new InvalidArgumentException("$key names the Redis connection [$name], which is not in database.redis");
        }
        $global = is_array($redis['options'] ?? null) ? $redis['options'] : [];
        $connection = self::withUrl($redis[$name], $at);
        $own = is_array($connection['options'] ?? null) ? $connection['options'] : [];
        $prefix = ($redis['client'] ?? 'phpredis') === 'predis'
            ? $connection['prefix'] ?? $own['prefix'] ?? $global['prefix'] ?? ''
            : $own['prefix'] ?? $global['prefix'] ?? $connection['prefix'] ?? '';
        if (!is_string($prefix)) {
            throw new InvalidArgumentException("the key prefix of $at must be a string");
        }
        $options = ['prefix' => $prefix];
        foreach (['username', 'password'] as $credential) {
            $value = $connection[$credential] ?? null;
            if ($value !== null && $value !== '') {
                if (!is_string($value)) {
                    throw new InvalidArgumentException("$at.$credential must be a string");
                }
                $options[$credential] = $value;
            }
        }
        $database = $connection['database'] ?? null;
        if ($database !== null && $database !== '') {
            if (!is_int($database) && !(is_string($database) && ctype_digit($database))) {
                throw new InvalidArgumentException("$at.database must be a number");
            }
            $options['database'] = (int) $database;
        }
        return new self($name, self::server($connection, $at), $options);
    }

    /** The connection's keys with those of its 'url' over them (as Laravel's ConfigurationUrlParser does). */
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
        $scheme = strtolower($parts['scheme'] ?? 'redis');
        if (!in_array($scheme, ['redis', 'rediss', 'tcp', 'tls', 'valkey', 'valkeys'], true)) {
            throw new InvalidArgumentException("$at.url must be a redis://, rediss://, tcp:// or tls:// URL");
        }
        $fromUrl = ['host' => rawurldecode($parts['host']), 'scheme' => in_array($scheme, ['rediss', 'tls', 'valkeys'], true) ? 'tls' : 'tcp'];
        if (isset($parts['port'])) {
            $fromUrl['port'] = $parts['port'];
        }
        if (isset($parts['user'])) {
            $fromUrl['username'] = rawurldecode($parts['user']);
        }
        if (isset($parts['pass'])) {
            $fromUrl['password'] = rawurldecode($parts['pass']);
        }
        $path = trim($parts['path'] ?? '', '/');
        if ($path !== '') {
            $fromUrl['database'] = $path;
        }
        return $fromUrl + $connection;
    }

    /** @return string|array{host: string} */
    private static function server(#[\SensitiveParameter] array $connection, string $at): string|array
    {
        $host = $connection['host'] ?? '127.0.0.1';
        if (!is_string($host) || $host === '') {
            throw new InvalidArgumentException("$at.host must be a host name, an address or a unix socket path");
        }
        $scheme = $connection['scheme'] ?? null;
        if (preg_match('#^(tcp|tls|unix)://(.*)$#i', $host, $m)) { /* phpredis takes a scheme in the host too */
            [$scheme, $host] = [strtolower($m[1]), $m[2]];
        }
        if ($scheme === 'unix' || str_starts_with($host, '/')) {
            return ['host' => $host];
        }
        $port = $connection['port'] ?? 6379;
        if (!(is_int($port) || (is_string($port) && ctype_digit($port))) || (int) $port < 1 || (int) $port > 65535) {
            throw new InvalidArgumentException("$at.port must be a port number");
        }
        $address = (str_contains($host, ':') ? "[$host]" : $host) . ':' . (int) $port;
        return $scheme === 'tls' ? "tls://$address" : $address;
    }
}
