<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

require_once __DIR__ . '/LaravelTestCase.php';
require_once __DIR__ . '/ChildProcess.php';

/** restoreLock(): another process (a queued job) releases the lock by its owner. */
final class RedisLockRestoreTest extends LaravelTestCase
{
    public function testRestoreLockInAnotherProcessReleasesIt(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10);
        $this->assertTrue($lock->get());
        $owner = $lock->owner();

        $said = $this->inChild(function () use ($name, $owner): string {
            $store = $this->newStore();
            $wrong = $store->restoreLock($name, 'not-' . $owner)->release() ? 'wrong released' : 'wrong refused';
            return $wrong . ', ' . ($store->restoreLock($name, $owner)->release() ? 'released' : 'not released');
        });

        $this->assertSame('wrong refused, released', $said);
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));
        $this->assertFalse($lock->release(), 'released elsewhere: nothing left to release');
        $this->assertTrue($store->lock($name, 10)->get(), 'free for the next owner');
        $store->lock($name)->forceRelease();
    }

    public function testALockWithoutExpiryIsReleasedByAnotherProcess(): void
    {
        $store = $this->newStore(600);
        $name = $this->uniqueName();
        $lock = $store->lock($name);
        $this->assertTrue($lock->get());

        $said = $this->inChild(fn (): string =>
            $this->newStore()->restoreLock($name, $lock->owner())->release() ? 'released' : 'not released');

        $this->assertSame('released', $said);
        usleep(700000); // two of our watchdog's extends: they find the key gone and make none
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));
        $this->assertTrue($this->newStore()->lock($name, 10)->get(), 'free for the next owner');
        $store->lock($name)->forceRelease();
    }

    public function testAnotherProcessSeesTheOwnerAndCanForceRelease(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10, 'the-owner');
        $this->assertTrue($lock->get());

        $said = $this->inChild(function () use ($name): string {
            $store = $this->newStore();
            $taken = $store->lock($name, 10)->get() ? 'taken' : 'busy';
            $store->lock($name, 10)->forceRelease();
            return $taken . ', ' . ($store->lock($name, 10)->get() ? 'taken after force' : 'busy after force');
        });

        $this->assertSame('busy, taken after force', $said);
        $this->assertFalse($lock->release(), 'the child took it over');
        $store->lock($name)->forceRelease();
    }

    /** Runs $body in a forked child; its string result. */
    private function inChild(callable $body): string
    {
        $child = ChildProcess::run(static function (ChildProcess $child) use ($body): void {
            $child->send($body());
        });
        try {
            return $child->receive();
        } finally {
            $child->wait();
        }
    }
}
