<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Symfony;

use RedisLock;
use RedisLock\Bridge\Symfony\CacheStampedeGuard;
use Symfony\Component\Cache\Adapter\FilesystemAdapter;
use Psr\Log\LoggerInterface;
use Symfony\Component\Cache\CacheItem;
use Symfony\Contracts\Cache\CacheInterface;
use Symfony\Contracts\Cache\ItemInterface;

/**
 * The callback wrapper on a real pool (a FilesystemAdapter every process of
 * the test shares): K processes call $pool->get() on the same missing item
 * at once, and the callback runs once; when it throws, once more, in one
 * other process; a process that waits longer than the guard's wait computes
 * the item itself. Without the wrapper the same start runs it in each.
 * Told by counts in Redis, not by timing: the computation holds until
 * every process has missed (so each was in get() while it ran), and the
 * one that waited too long holds until the others compute too.
 */
final class CacheStampedeGuardTest extends SymfonyTestCase
{
    private string $dir;

    protected function framework(): string
    {
        return 'Symfony/Component/Cache/autoload.php';
    }

    protected function setUp(): void
    {
        parent::setUp();
        /* Debian's autoloader of symfony/cache 7 lacks the namespace-less class
         * that wraps an item with metadata (Composer's classmap has it) */
        $wrapper = dirname((new \ReflectionClass(CacheItem::class))->getFileName()) . '/Traits/ValueWrapper.php';
        if (!class_exists("\xA9", false) && is_file($wrapper)) {
            require_once $wrapper;
        }
        $this->dir = sys_get_temp_dir() . '/rl-sf-cache-' . bin2hex(random_bytes(4));
    }

    protected function tearDown(): void
    {
        if (isset($this->dir) && is_dir($this->dir)) {
            $files = new \RecursiveIteratorIterator(
                new \RecursiveDirectoryIterator($this->dir, \FilesystemIterator::SKIP_DOTS),
                \RecursiveIteratorIterator::CHILD_FIRST
            );
            foreach ($files as $f) {
                $f->isDir() ? rmdir($f->getPathname()) : unlink($f->getPathname());
            }
            rmdir($this->dir);
        }
    }

    /**
     * K processes call $pool->get($item) together; each returns what it got.
     * Every process that misses counts itself in Redis ("$counter:missed")
     * before the guard (or, without one, the callback) takes the miss. The
     * callback counts its runs ($counter), throws on the run numbered
     * $throwOnRun, and holds until $until[0] (a counter: 'missed' or
     * 'runs') reaches $until[1]: by default until every process has missed,
     * so that no process is served by a save that came before it looked,
     * however the machine schedules them. Every wait is bounded (60 s).
     *
     * @param array{0: 'missed'|'runs', 1: int}|null $until
     * @return list<string>
     */
    private function stampede(
        int $k,
        ?CacheStampedeGuard $guard,
        string $item,
        string $counter,
        int $throwOnRun = 0,
        ?array $until = null
    ): array {
        [$what, $reach] = $until ?? ['missed', $k];
        $barrier = $what === 'missed' ? "$counter:missed" : $counter;
        $pids = [];
        for ($i = 0; $i < $k; $i++) {
            $pids[] = $this->fork(function () use ($k, $guard, $item, $counter, $throwOnRun, $barrier, $reach): string {
                $pool = new FilesystemAdapter('stampede', 0, $this->dir);
                $redis = $this->redis->client();
                $pool->setCallbackWrapper(static function (
                    callable $callback,
                    ItemInterface $item,
                    bool &$save,
                    CacheInterface $pool,
                    ?\Closure $setMetadata = null,
                    ?LoggerInterface $logger = null,
                    ?float $beta = null
                ) use (
                    $guard,
                    $redis,
                    $counter
): mixed {
                    $redis->cmd('INCR', "$counter:missed");
                    return $guard === null ? $callback($item, $save) : $guard($callback, $item, $save, $pool, $setMetadata, $logger, $beta);
                });
                /* together: each starts once all are forked */
                $redis->cmd('INCR', "$counter:ready");
                self::until(fn () => (int) $redis->cmd('GET', "$counter:ready") >= $k);
                return (string) $pool->get($item, static function (ItemInterface $it) use ($redis, $counter, $throwOnRun, $barrier, $reach): string {
                    $run = $redis->cmd('INCR', $counter);
                    self::until(fn () => (int) $redis->cmd('GET', $barrier) >= $reach);
                    if ($run === $throwOnRun) {
                        throw new \RuntimeException("run $run failed");
                    }
                    return "built by run $run";
                });
            });
        }
        return array_map(fn (int $pid) => $this->waitChild($pid), $pids);
    }

    /** Waits until $cond holds, at most 60 s. */
    private static function until(callable $cond): void
    {
        for ($end = microtime(true) + 60; !$cond() && microtime(true) < $end;) {
            usleep(5000);
        }
    }

    /** $wait: longer than any of the stampede's bounded waits, so that only the guard ends it */
    private function guard(float $wait = 120.0): CacheStampedeGuard
    {
        return CacheStampedeGuard::fromServers(
            $this->redis->address(),
            ['prefix' => 'sf:'],
            'cache:' . bin2hex(random_bytes(4)) . ':',
            10000,
            $wait
        );
    }

    public function testTheCallbackRunsOnceAcrossProcesses(): void
    {
        $counter = $this->resource('runs');
        $got = $this->stampede(6, $this->guard(), 'report', $counter);
        $this->assertSame(array_fill(0, 6, 'built by run 1'), $got);
        $this->assertSame(
            '6',
            $this->redis->cmd('GET', "$counter:missed"),
            'every process missed while it was computed'
        );
        $this->assertSame('1', $this->redis->cmd('GET', $counter));
    }

    public function testWithoutTheGuardEachProcessRunsIt(): void
    {
        $counter = $this->resource('runs');
        $this->stampede(6, null, 'report', $counter);
        $this->assertSame('6', $this->redis->cmd('GET', "$counter:missed"));
        $this->assertSame(
            '6',
            $this->redis->cmd('GET', $counter),
            'the stampede the guard prevents: each process that missed ran it'
        );
    }

    public function testAComputationThatThrowsIsTakenOverByOneProcess(): void
    {
        $counter = $this->resource('runs');
        $got = $this->stampede(6, $this->guard(), 'report', $counter, 1);
        sort($got);
        $this->assertSame(array_merge(array_fill(0, 5, 'built by run 2'), ['threw: run 1 failed']), $got);
        $this->assertSame('2', $this->redis->cmd('GET', $counter));
    }

    public function testAProcessThatWaitedTooLongComputesItself(): void
    {
        /* a wait of 0.2 s, and each computation holds until all three compute:
         * the first cannot end before the other two have given up waiting */
        $counter = $this->resource('runs');
        $got = $this->stampede(3, $this->guard(0.2), 'report', $counter, 0, ['runs', 3]);
        $this->assertCount(3, array_unique($got), 'each computed its own: ' . implode(', ', $got));
        $this->assertSame('3', $this->redis->cmd('GET', $counter));
    }

    public function testTheWrapperSavesTheItemWithItsMetadata(): void
    {
        $pool = new FilesystemAdapter('saved', 0, $this->dir);
        $pool->setCallbackWrapper($this->guard());
        $this->assertSame('v1', $pool->get('item', static function (ItemInterface $item): string {
            $item->expiresAfter(60);
            return 'v1';
        }));
        $this->assertSame('v1', $pool->get('item', static fn () => 'not called'));
        $this->assertTrue($pool->getItem('item')->isHit());
        $this->assertNotNull($pool->getItem('item')->getMetadata()[ItemInterface::METADATA_EXPIRY] ?? null);
    }

    public function testAnItemSavedBeforeTheLockWasHadIsNotComputedAgain(): void
    {
        /* this request missed, another saved the item, then this one got the lock */
        $pool = new FilesystemAdapter('late', 0, $this->dir);
        $this->assertSame('v0', $pool->get('item', static fn () => 'v0'));
        $save = true;
        $got = ($this->guard())(static fn () => 'computed again', $pool->getItem('item'), $save, $pool);
        $this->assertSame('v0', $got);
        $this->assertFalse($save);
    }

    public function testRedisDownComputesWithoutTheGuard(): void
    {
        $pool = new FilesystemAdapter('down', 0, $this->dir);
        $port = \rl_free_port(); /* nothing listens there */
        $pool->setCallbackWrapper(CacheStampedeGuard::fromServers("127.0.0.1:$port", ['connect_timeout' => 0.2]));
        $this->assertSame('v', $pool->get('item', static fn () => 'v'));
        $this->assertSame('v', $pool->get('item', static fn () => 'not called'), 'saved');
    }

    public function testBadArguments(): void
    {
        $locker = new RedisLock($this->redis->address(), ['reentrant' => false]);
        foreach ([[0, 1.0, '1 ms'], [1000, -1.0, 'seconds'], [1000, 90000.0, 'seconds']] as [$ttl, $wait, $says]) {
            try {
                new CacheStampedeGuard($locker, 'c:', $ttl, $wait);
                $this->fail('no error');
            } catch (\ValueError $e) {
                $this->assertStringContainsString($says, $e->getMessage());
            }
        }
    }
}
