<?php
declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Contracts\Cache\LockTimeoutException;

require_once __DIR__ . '/LaravelTestCase.php';
require_once __DIR__ . '/ChildProcess.php';

/** block(): one wait in the extension, woken by the release. */
final class RedisLockBlockTest extends LaravelTestCase
{
    public function testBlockIsWokenAtTheReleaseOfAnotherProcess(): void
    {
        $name = $this->uniqueName();
        $child = ChildProcess::run(function (ChildProcess $child) use ($name): void {
            $lock = $this->newStore()->lock($name, 10);
            if (!$lock->get()) {
                $child->send('not acquired');
                return;
            }
            $child->send('held');
            usleep(300000);
            $child->send(sprintf('releasing at %.6f', microtime(true)));
            $child->send($lock->release() ? 'released' : 'not released');
        });
        $this->assertSame('held', $child->receive());

        $store = $this->newStore();
        $this->server()->cmd('CONFIG', 'RESETSTAT');
        $start = microtime(true);
        $this->assertTrue($store->lock($name, 10)->block(5));
        $woken = microtime(true);

        $said = $child->receive();
        $this->assertStringStartsWith('releasing at ', $said);
        $this->assertSame('released', $child->receive());
        $child->wait();
        $releasing = (float) substr($said, strlen('releasing at '));
        $this->assertGreaterThan(0.15, $woken - $start, 'it waited for the holder');
        $this->assertLessThan(0.15, $woken - $releasing, 'woken by the release, not by a poll');

        /* what the clients sent (calls from inside scripts count under their own names): one SET
           each, a script to queue, one XREAD per wake or 200 ms recheck, a script to take it;
           polling would also be a SET every 250 ms: the wake time above is the real difference */
        $server = $this->server();
        $this->assertLessThanOrEqual(4, $server->calls('set'), 'no polling with SET');
        $this->assertLessThanOrEqual(5, $server->calls('xread'));
        $this->assertLessThanOrEqual(10, $server->calls('evalsha') + $server->calls('eval'));
        $this->server()->cmd('DEL', $this->key($name));
    }

    public function testBlockTimesOutWithLockTimeoutExceptionAfterTheWait(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $holder = $store->lock($name, 10);
        $this->assertTrue($holder->get());

        $start = microtime(true);
        try {
            $store->lock($name, 10)->block(1);
            $this->fail('no LockTimeoutException');
        } catch (LockTimeoutException) {
            $elapsed = microtime(true) - $start;
            $this->assertGreaterThan(0.9, $elapsed);
            $this->assertLessThan(2.0, $elapsed);
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

        $start = microtime(true);
        try {
            $store->lock($name, 10)->block(0);
            $this->fail('no LockTimeoutException');
        } catch (LockTimeoutException) {
            $this->assertLessThan(0.5, microtime(true) - $start);
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
