<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Symfony;

use PHPUnit\Framework\TestCase;
use RedisLock\Bridge\Tests\RedisServer;

/** Skips (with the reason) when Debian's symfony package is not installed. */
abstract class SymfonyTestCase extends TestCase
{
    protected RedisServer $redis;

    /** the package's autoloader, on PHP's include path */
    abstract protected function framework(): string;

    protected function setUp(): void
    {
        if (!bridge_framework($this->framework())) {
            $this->markTestSkipped($this->framework() . ' not found: install php-symfony-lock, php-symfony-semaphore and php-symfony-cache');
        }
        $this->redis = RedisServer::shared();
    }

    /** a resource name no other test uses */
    protected function resource(string $what): string
    {
        return $what . '-' . bin2hex(random_bytes(4));
    }

    /** @var array<int, string> pid => where the child writes its result */
    private array $children = [];

    /** Runs $child in a forked process; returns its pid (waitChild() gives its result). */
    protected function fork(callable $child): int
    {
        $result = tempnam(sys_get_temp_dir(), 'rl-child-');
        $pid = pcntl_fork();
        if ($pid === 0) {
            $code = 'no result';
            try {
                $code = (string)$child();
            } catch (\Throwable $e) {
                $code = 'threw: ' . $e->getMessage();
            }
            file_put_contents($result, $code);
            posix_kill(posix_getpid(), SIGKILL); /* no phpunit shutdown, no redis-server stop in the child */
        }
        $this->assertGreaterThan(0, $pid, 'fork');
        $this->children[$pid] = $result;
        return $pid;
    }

    /** Reaps the child; its callable's return value (as a string). */
    protected function waitChild(int $pid): string
    {
        pcntl_waitpid($pid, $status);
        $result = (string)file_get_contents($this->children[$pid]);
        unlink($this->children[$pid]);
        unset($this->children[$pid]);
        return $result;
    }
}
