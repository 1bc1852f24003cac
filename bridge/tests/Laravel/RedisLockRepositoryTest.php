<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Cache\ArrayStore;
use Illuminate\Cache\Repository;
use RedisLock;
use RedisLock\Bridge\Laravel\RedisLockRepository;
use RedisLock\Bridge\Laravel\RedisLockStore;

require_once __DIR__ . '/LaravelTestCase.php';
require_once __DIR__ . '/ChildProcess.php';
require_once __DIR__ . '/ReportKey.php';

/**
 * The redislock store's repository: K processes call remember() (and
 * flexible(), on the Laravel versions that have it) on the same missing
 * item at once over a store they share, and the callback runs once; when
 * it throws, once more, in one other process. Laravel's own Repository
 * over the same store runs it in each.
 */
final class RedisLockRepositoryTest extends LaravelTestCase
{
    /**
     * K processes start $call($repository, $build) together (once all K are
     * ready: a barrier in Redis, no clock); each sends what it got.
     * $build counts its runs in Redis ($counter), takes $buildMs, and throws on run $throwOnRun.
     *
     * @return list<string>
     */
    private function stampede(
        int $k,
        bool $guarded,
        string $prefix,
        string $counter,
        int $buildMs,
        callable $call,
        int $throwOnRun = 0
    ): array {
        [$ready, $go] = ["$counter:ready", "$counter:go"];
        $children = [];
        for ($i = 0; $i < $k; $i++) {
            $children[] = ChildProcess::run(function (ChildProcess $child) use ($guarded, $prefix, $counter, $buildMs, $call, $throwOnRun, $ready, $go): void {
                $store = $this->newStore(inner: new SharedRedisStore($prefix));
                $repository = $guarded ? new RedisLockRepository($store) : new Repository($store);
                $redis = $this->server()->client();
                $build = static function () use ($redis, $counter, $buildMs, $throwOnRun): string {
                    $run = $redis->cmd('INCR', $counter);
                    usleep($buildMs * 1000);
                    if ($run === $throwOnRun) {
                        throw new \RuntimeException("run $run failed");
                    }
                    return "built by run $run";
                };
                $redis->cmd('INCR', $ready);
                for ($deadline = microtime(true) + 30; $redis->cmd('EXISTS', $go) !== 1;) {
                    if (microtime(true) > $deadline) {
                        $child->send('never told to go');
                        return;
                    }
                    usleep(1000);
                }
                try {
                    $child->send((string) $call($repository, $build));
                } catch (\RuntimeException $e) {
                    $child->send('threw: ' . $e->getMessage());
                }
            });
        }
        /* all K ready (30 s: only a failure waits it out), then go */
        for ($deadline = microtime(true) + 30; (int) $this->server()->cmd('GET', $ready) < $k && microtime(true) < $deadline;) {
            usleep(1000);
        }
        $this->server()->cmd('SET', $go, '1');
        $got = [];
        foreach ($children as $child) {
            $got[] = $child->receive(30.0);
            $child->wait();
        }
        sort($got);
        return $got;
    }

    public function testRememberComputesOnceAcrossProcesses(): void
    {
        $counter = $this->uniqueName();
        $got = $this->stampede(
            6,
            true,
            $this->uniqueName() . ':',
            $counter,
            300,
            static fn (Repository $r, \Closure $build) => $r->remember('report', 60, $build)
        );
        $this->assertSame(array_fill(0, 6, 'built by run 1'), $got);
        $this->assertSame('1', $this->server()->cmd('GET', $counter));
    }

    public function testLaravelsOwnRepositoryComputesInEachProcess(): void
    {
        /* a demonstration: the 6 go together, and a second one must come to the
           miss before the first's 300 ms build is stored; a round where none did
           (a machine too busy to run them) runs again, 3 rounds at most */
        for ($round = 1; $round <= 3; $round++) {
            $counter = $this->uniqueName();
            $this->stampede(
                6,
                false,
                $this->uniqueName() . ':',
                $counter,
                300,
                static fn (Repository $r, \Closure $build) => $r->remember('report', 60, $build)
            );
            $runs = (int) $this->server()->cmd('GET', $counter);
            if ($runs > 1) {
                break;
            }
            fwrite(STDERR, "round $round: the builds did not overlap (1 run): run again\n");
        }
        $this->assertGreaterThan(1, $runs, 'the stampede the guard prevents');
    }

    public function testAComputationThatThrowsIsTakenOverByOneProcess(): void
    {
        $counter = $this->uniqueName();
        $got = $this->stampede(
            6,
            true,
            $this->uniqueName() . ':',
            $counter,
            200,
            static fn (Repository $r, \Closure $build) => $r->rememberForever('report', $build),
            1
        );
        $this->assertSame(array_merge(array_fill(0, 5, 'built by run 2'), ['threw: run 1 failed']), $got);
        $this->assertSame('2', $this->server()->cmd('GET', $counter));
    }

    public function testFlexibleComputesAMissOnce(): void
    {
        if (!method_exists(Repository::class, 'flexible')) {
            $this->markTestSkipped('flexible() is Laravel 11.23\'s and later\'s');
        }
        $counter = $this->uniqueName();
        $got = $this->stampede(
            6,
            true,
            $this->uniqueName() . ':',
            $counter,
            300,
            static fn (Repository $r, \Closure $build) => $r->flexible('report', [30, 60], $build)
        );
        $this->assertSame(array_fill(0, 6, 'built by run 1'), $got);
        $this->assertSame('1', $this->server()->cmd('GET', $counter));
    }

    public function testFlexibleOnAnOlderLaravelSaysSo(): void
    {
        if (method_exists(Repository::class, 'flexible')) {
            $this->markTestSkipped('this Laravel has flexible()');
        }
        $this->expectException(\BadMethodCallException::class);
        $this->expectExceptionMessage('flexible() is Laravel 11.23');
        (new RedisLockRepository($this->newStore()))->flexible('k', [1, 2], static fn () => 'v');
    }

    public function testAHitIsNotGuarded(): void
    {
        $store = $this->newStore();
        $repository = new RedisLockRepository($store);
        $this->assertSame('v', $repository->remember('k', 60, static fn () => 'v'));
        $this->server()->cmd('CONFIG', 'RESETSTAT');
        $this->assertSame('v', $repository->remember('k', 60, static fn () => 'not called'));
        $this->assertSame('v', $repository->rememberForever('k', static fn () => 'not called'));
        $this->assertSame(0, $this->server()->calls('evalsha') + $this->server()->calls('set'), 'no lock for a hit');
    }

    public function testAnEnumKeyOnTheLaravelsThatTakeThem(): void
    {
        if (!function_exists('Illuminate\\Support\\enum_value')) {
            $this->markTestSkipped('this Laravel takes no enum for a cache key');
        }
        $repository = new RedisLockRepository($this->newStore());
        $this->assertSame('v', $repository->remember(ReportKey::Daily, 60, static fn () => 'v'));
        $this->assertSame('v', $repository->rememberForever(ReportKey::Daily, static fn () => 'not called'));
    }

    public function testRedisDownComputesWithoutTheGuard(): void
    {
        $port = \rl_free_port(); /* nothing listens there */
        $down = new RedisLock("127.0.0.1:$port", ['connect_timeout' => 0.2, 'reentrant' => false]);
        $store = new RedisLockStore(new ArrayStore(), $down, $down, self::LOCK_PREFIX, 30000, $down);
        $repository = new RedisLockRepository($store);
        $this->assertSame('v', $repository->remember('k', 60, static fn () => 'v'));
        $this->assertSame('v', $repository->remember('k', 60, static fn () => 'not called'), 'stored');
    }

    public function testANullResultIsComputedAgainAsLaravelDoes(): void
    {
        $repository = new RedisLockRepository($this->newStore());
        $runs = 0;
        $this->assertNull($repository->remember('nothing', 60, static function () use (&$runs) {
            $runs++;
            return null;
        }));
        $this->assertNull($repository->remember('nothing', 60, static function () use (&$runs) {
            $runs++;
            return null;
        }));
        $this->assertSame(2, $runs);
    }
}
