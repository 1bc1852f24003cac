<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests;

use function rl_free_port;

require_once __DIR__ . '/../../tests/free_port.inc'; // rl_free_port(): a port of this suite's range

/**
 * One throwaway redis-server per test run (started on first use, stopped by
 * its pid when PHP exits: stopAll(), which the bootstrap registers), and a
 * raw RESP client to look at it with.
 */
final class RedisServer
{
    private static ?self $shared = null;
    /** @var array<int, self> the servers this process started and has not stopped */
    private static array $running = [];
    private ?int $pid = null;
    private ?string $dir = null;
    /** @var resource|null */
    private $sock = null;

    private function __construct(public readonly string $host, public readonly int $port)
    {
    }

    public static function shared(): self
    {
        if (self::$shared === null) {
            $given = getenv('REDISLOCK_BRIDGE_REDIS');
            if ($given) {
                [$host, $port] = explode(':', $given, 2);
                self::$shared = new self($host, (int)$port);
            } else {
                self::$shared = self::start();
            }
        }
        return self::$shared;
    }

    /** The same server on a connection of its own (a forked child's: the parent's socket is not shared). */
    public function client(): self
    {
        return new self($this->host, $this->port);
    }

    /** "host:port", the form RedisLock takes. */
    public function address(): string
    {
        return $this->host . ':' . $this->port;
    }

    public static function start(): self
    {
        $bin = getenv('REDISLOCK_TEST_REDIS_SERVER') ?: 'redis-server';
        $dir = sys_get_temp_dir() . '/rl-bridge-' . bin2hex(random_bytes(4));
        mkdir($dir, 0700);
        for ($try = 0; $try < 5; $try++) {
            $port = rl_free_port();
            $cmd = [$bin, '--port', (string)$port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
                    '--dir', $dir, '--daemonize', 'no', '--logfile', "$dir/redis.log"];
            $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'],
                                     2 => ['file', '/dev/null', 'w']], $pipes);
            $server = new self('127.0.0.1', $port);
            $server->pid = proc_get_status($proc)['pid'];
            $server->dir = $dir;
            for ($i = 0; $i < 200; $i++) {
                if (@fsockopen('127.0.0.1', $port, $e, $m, 0.1)) {
                    self::$running[spl_object_id($server)] = $server;
                    return $server;
                }
                if (!proc_get_status($proc)['running']) {
                    break; /* the port was taken meanwhile: another one */
                }
                usleep(10000);
            }
            $server->stop();
        }
        throw new \RuntimeException("cannot start $bin");
    }

    /**
     * Stops every server still running. Registered by the bootstrap, before
     * PHPUnit 10+ registers the shutdown function that ends PHP with exit()
     * after a fatal error (later ones never run): no server outlives the run.
     */
    public static function stopAll(): void
    {
        foreach (self::$running as $server) {
            $server->stop();
        }
    }

    /** SIGSTOP: the server keeps its connections open and answers nothing until resume(). */
    public function pause(): void
    {
        posix_kill($this->ownPid(), SIGSTOP);
    }

    public function resume(): void
    {
        posix_kill($this->ownPid(), SIGCONT);
    }

    /** The pid of a server this run started (never 0: kill(0) would signal the whole group). */
    private function ownPid(): int
    {
        if ($this->pid === null || $this->pid <= 0) {
            throw new \LogicException('not a server this run started');
        }
        return $this->pid;
    }

    public function stop(): void
    {
        unset(self::$running[spl_object_id($this)]);
        if ($this->pid !== null) {
            posix_kill($this->pid, SIGCONT); /* a paused server would not act on SIGTERM */
            posix_kill($this->pid, SIGTERM);
            for ($i = 0; $i < 300 && posix_kill($this->pid, 0); $i++) {
                usleep(10000);
                pcntl_waitpid($this->pid, $status, WNOHANG);
            }
            $this->pid = null;
        }
        if ($this->dir !== null) {
            array_map('unlink', glob($this->dir . '/*') ?: []);
            @rmdir($this->dir);
            $this->dir = null;
        }
    }

    /** Sends one command; returns its reply (an error reply as a RuntimeException). */
    public function cmd(string ...$args): mixed
    {
        if ($this->sock === null) {
            $this->sock = stream_socket_client("tcp://{$this->host}:{$this->port}", $errno, $errstr, 5);
            if (!$this->sock) {
                throw new \RuntimeException("cannot connect to {$this->address()}: $errstr");
            }
        }
        $out = '*' . count($args) . "\r\n";
        foreach ($args as $a) {
            $out .= '$' . strlen($a) . "\r\n" . $a . "\r\n";
        }
        fwrite($this->sock, $out);
        return $this->read();
    }

    private function read(): mixed
    {
        $line = fgets($this->sock);
        if ($line === false) {
            throw new \RuntimeException('connection closed');
        }
        $type = $line[0];
        $rest = substr($line, 1, -2);
        switch ($type) {
            case '+':
                return $rest;
            case '-':
                throw new \RuntimeException($rest);
            case ':':
                return (int)$rest;
            case '$':
                if ((int)$rest < 0) {
                    return null;
                }
                $data = '';
                $want = (int)$rest + 2;
                while (strlen($data) < $want) {
                    $data .= fread($this->sock, $want - strlen($data));
                }
                return substr($data, 0, -2);
            case '*':
                if ((int)$rest < 0) {
                    return null;
                }
                $items = [];
                for ($i = 0; $i < (int)$rest; $i++) {
                    $items[] = $this->read();
                }
                return $items;
        }
        throw new \RuntimeException("unexpected reply: $line");
    }

    /** calls of a command since the last CONFIG RESETSTAT, from INFO commandstats */
    public function calls(string $command): int
    {
        return $this->stat($command, 'calls');
    }

    /**
     * Scripts run (EVALSHA and EVAL answered without an error) since the last CONFIG
     * RESETSTAT: not an EVALSHA answered NOSCRIPT, such as a new connection's question
     * whether the server runs scripts, or a script's first send
     */
    public function scriptsRun(): int
    {
        $n = 0;
        foreach (['evalsha', 'eval'] as $command) {
            $n += $this->stat($command, 'calls') - $this->stat($command, 'failed_calls')
                - $this->stat($command, 'rejected_calls');
        }
        return $n;
    }

    /** A field ("calls", "failed_calls", ...) of a command's line in INFO commandstats: 0 when absent */
    private function stat(string $command, string $field): int
    {
        $info = $this->cmd('INFO', 'commandstats');
        $line = 'cmdstat_' . strtolower($command) . ':';
        $at = strpos($info, $line);
        if ($at === false) {
            return 0;
        }
        $end = strpos($info, "\r\n", $at);
        $fields = ',' . substr($info, $at + strlen($line), $end === false ? null : $end - $at - strlen($line));
        $f = strpos($fields, ",$field=");
        return $f === false ? 0 : (int)substr($fields, $f + strlen($field) + 2);
    }
}
