<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Contracts\Cache\LockTimeoutException;

require_once __DIR__ . '/LaravelTestCase.php';
require_once __DIR__ . '/ChildProcess.php';

/** block(): one wait in the extension, woken by the release. */
final class RedisLockBlockTest extends LaravelTestCase
{
    /**
     * Counts, no clock (issue 31): the holder lets go once this process is
     * seen blocked in XREAD, and this process's RedisLock::stats() say what
     * ended its wait: woken by the release, no failed read. A round where
     * the 2 s recheck took it just as the holder let go (rechecked, not
     * woken, no error) runs again, 3 rounds at most.
     */
    public function testBlockIsWokenAtTheReleaseOfAnotherProcess(): void
    {
        for ($round = 1;; $round++) {
            $name = $this->uniqueName();
            $child = ChildProcess::run(function (ChildProcess $child) use ($name): void {
                $lock = $this->newStore()->lock($name, 60);
                if (!$lock->get()) {
                    $child->send('not acquired');
                    return;
                }
                $child->send('held');
                $blocked = self::waitForABlockedRead($this->server()->client());
                $child->send($blocked ? 'seen blocked' : 'never seen blocked');
                $child->send($lock->release() ? 'released' : 'not released');
            });
            $this->assertSame('held', $child->receive(30.0));

            $store = $this->newStore();
            $this->server()->cmd('CONFIG', 'RESETSTAT');
            $before = \RedisLock::stats();
            $this->assertTrue(
                $store->lock($name, 10)->block(30),
                'had after the release (30 s: only a failure waits it out)'
            );
            $seen = self::waitCounts($before, \RedisLock::stats());

            $this->assertSame('seen blocked', $child->receive(30.0), 'the holder saw this process blocked in XREAD');
            $this->assertSame('released', $child->receive(30.0));
            $child->wait();
            $server = $this->server();
            $calls = ['set' => $server->calls('set'), 'xread' => $server->calls('xread'),
                      'scripts' => $server->scriptsRun()];
            $server->cmd('DEL', $this->key($name));
            $raced = $seen['waits_woken'] === 0 && $seen['wake_errors'] === 0 && $seen['waits_rechecked'] > 0;
            if (!$raced || $round === 3) {
                break;
            }
            fwrite(STDERR, "round $round: the recheck took it as the holder let go (not woken, no error): run again\n");
        }
        $this->assertGreaterThanOrEqual(
            1,
            $seen['waits_woken'],
            'woken by the release, not by a poll: ' . json_encode($seen)
        );
        $this->assertSame(0, $seen['wake_errors'], json_encode($seen));

        /* what the clients sent (calls from inside scripts count under their own names): one SET
           each, a script to queue, one XREAD per wake or recheck, a script to take it;
           polling would also be a SET every 250 ms */
        $this->assertLessThanOrEqual(4, $calls['set'], 'no polling with SET');
        $this->assertLessThanOrEqual(4 + $seen['waits_rechecked'], $calls['xread']);
        $this->assertLessThanOrEqual(10 + 2 * $seen['waits_rechecked'], $calls['scripts']);
    }

    /** Waits (bounded, 30 s: only a failure waits it out) for a client blocked in XREAD on $redis. */
    private static function waitForABlockedRead(\RedisLock\Bridge\Tests\RedisServer $redis): bool
    {
        for ($deadline = microtime(true) + 30; microtime(true) < $deadline; usleep(5000)) {
            if (preg_match('/ flags=\S*b\S* .* cmd=xread /', (string) $redis->cmd('CLIENT', 'LIST'))) {
                return true;
            }
        }
        return false;
    }

    /** What ended this process's waits between two RedisLock::stats(). */
    private static function waitCounts(array $before, array $after): array
    {
        $seen = [];
        foreach (['waits_woken', 'waits_rechecked', 'wake_errors'] as $k) {
            $seen[$k] = $after[$k] - $before[$k];
        }
        return $seen;
    }

    public function testBlockTimesOutWithLockTimeoutExceptionAfterTheWait(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $holder = $store->lock($name, 10);
        $this->assertTrue($holder->get());

        $before = \RedisLock::stats();
        $start = microtime(true);
        try {
            $store->lock($name, 10)->block(1);
            $this->fail('no LockTimeoutException');
        } catch (LockTimeoutException) {
            $this->assertGreaterThan(0.9, microtime(true) - $start, 'not before its 1 s');
            /* ended by its deadline, not by a wake: counts, no upper bound on the clock (issue 31) */
            $seen = self::waitCounts($before, \RedisLock::stats());
            $this->assertSame(0, $seen['waits_woken'], json_encode($seen));
            $this->assertGreaterThanOrEqual(1, $seen['waits_rechecked'], json_encode($seen));
            $this->assertSame(0, $seen['wake_errors'], json_encode($seen));
        }
        $this->assertSame($holder->owner(), $this->server()->cmd('GET', $this->key($name)), 'the holder keeps it');
        $holder->release();
    }

    /** Laravel's block() polls get(), which its owner's own lock refuses: it waits for that lock's end. */
    public function testBlockOnItsOwnLockWaitsForItsEnd(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10, 'owner-a');
        $this->assertTrue($lock->get());
        $start = microtime(true);
        try {
            $lock->block(0.3);
            $this->fail('had its own lock again');
        } catch (LockTimeoutException) {
            $this->assertGreaterThanOrEqual(0.25, microtime(true) - $start);
        }
        $this->server()->cmd('PEXPIRE', $this->key($name), '200');
        $this->assertTrue($store->lock($name, 10, 'owner-a')->block(3), 'had again at its end');
        $this->assertGreaterThan(8000, $this->pttl($name), 'taken anew, with its own seconds');
        $this->assertTrue($lock->release());
    }

    public function testBlockOfZeroSecondsTriesOnce(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $holder = $store->lock($name, 10);
        $holder->get();

        /* one try, no wait: counts, no clock (issue 31) */
        $before = \RedisLock::stats();
        $this->server()->cmd('CONFIG', 'RESETSTAT');
        try {
            $store->lock($name, 10)->block(0);
            $this->fail('no LockTimeoutException');
        } catch (LockTimeoutException) {
            $seen = self::waitCounts($before, \RedisLock::stats());
            $this->assertSame(['waits_woken' => 0, 'waits_rechecked' => 0, 'wake_errors' => 0], $seen, 'no wait');
            $this->assertSame(0, $this->server()->calls('xread'), 'no blocking read');
        }
        $holder->release();
        $this->assertTrue($store->lock($name, 10)->block(0), 'free: taken at once');
        $store->lock($name)->forceRelease();
    }

    public function testBlockWithACallbackReturnsItsResultAndReleases(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $this->assertSame(42, $store->lock($name, 10)->block(1, fn (): int => 42));
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));
    }

    public function testBlockWithACallbackReleasesWhenItThrows(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        try {
            $store->lock($name, 10)->block(1, static function (): void {
                throw new \DomainException('the callback failed');
            });
            $this->fail('the exception went missing');
        } catch (\DomainException $e) {
            $this->assertSame('the callback failed', $e->getMessage());
        }
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));
    }

    public function testBlockTimingOutDoesNotRunTheCallback(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $holder = $store->lock($name, 10);
        $holder->get();

        $ran = false;
        try {
            $store->lock($name, 10)->block(0, function () use (&$ran): void {
                $ran = true;
            });
            $this->fail('no LockTimeoutException');
        } catch (LockTimeoutException) {
            $this->assertFalse($ran);
        }
        $holder->release();
    }
}
