<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

/**
 * A forked child running a closure, talking to the parent in lines over a
 * socket pair. The child ends with SIGKILL: it must not run the parent's
 * shutdown functions (one stops the run's redis-server) nor PHPUnit's.
 * The extension's objects of the parent do not reach Redis from the child
 * (inherited connections are not used there); the closure makes its own.
 */
final class ChildProcess
{
    /** @param resource $socket */
    private function __construct(private readonly int $pid, private $socket)
    {
    }

    /** @param callable(ChildProcess): void $body runs in the child; send() talks to the parent */
    public static function run(callable $body): self
    {
        [$parentEnd, $childEnd] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        $pid = pcntl_fork();
        if ($pid < 0) {
            throw new \RuntimeException('fork failed');
        }
        if ($pid === 0) {
            fclose($parentEnd);
            $child = new self(0, $childEnd);
            try {
                $body($child);
            } catch (\Throwable $e) {
                $child->send('error ' . get_class($e) . ': ' . str_replace("\n", ' ', $e->getMessage()));
            }
            posix_kill(posix_getpid(), SIGKILL);
        }
        fclose($childEnd);
        return new self($pid, $parentEnd);
    }

    /** In the child: one line to the parent. */
    public function send(string $line): void
    {
        fwrite($this->socket, $line . "\n");
    }

    /** In the parent: the child's next line; fails after $timeout seconds. */
    public function receive(float $timeout = 10.0): string
    {
        $read = [$this->socket];
        $none = null;
        if (stream_select($read, $none, $none, (int) $timeout, (int) (fmod($timeout, 1.0) * 1e6)) !== 1) {
            throw new \RuntimeException("the child said nothing for $timeout s");
        }
        $line = fgets($this->socket);
        if ($line === false) {
            throw new \RuntimeException('the child ended without a word');
        }
        return rtrim($line, "\n");
    }

    /** In the parent: reaps the child (killing it first when $kill). */
    public function wait(bool $kill = false): void
    {
        if ($kill) {
            posix_kill($this->pid, SIGKILL);
        }
        pcntl_waitpid($this->pid, $status);
        fclose($this->socket);
    }
}
