<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Contracts\Cache\Lock as LockContract;
use RedisLock\Bridge\Laravel\RedisLockLock;

require_once __DIR__ . '/LaravelTestCase.php';

/** get(), release(), owners, forceRelease(): one process. */
final class RedisLockLockTest extends LaravelTestCase
{
    public function testGetAndRelease(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10);

        $this->assertInstanceOf(RedisLockLock::class, $lock);
        $this->assertInstanceOf(LockContract::class, $lock);
        $this->assertTrue($lock->get());
        $this->assertSame($lock->owner(), $this->server()->cmd('GET', $this->key($name)));
        $pttl = $this->pttl($name);
        $this->assertGreaterThan(8000, $pttl);
        $this->assertLessThanOrEqual(10000, $pttl);

        $this->assertTrue($lock->release());
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));
        $this->assertFalse($lock->release(), 'a second release finds nothing');
    }

    public function testASecondOwnerCannotGetIt(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $first = $store->lock($name, 10);
        $this->assertTrue($first->get());

        $second = $store->lock($name, 10);
        $this->assertNotSame($first->owner(), $second->owner());
        $this->assertFalse($second->get());
        $this->assertFalse($this->newStore()->lock($name, 10)->get(), 'nor from another object');

        $first->release();
        $this->assertTrue($second->get());
        $second->release();
    }

    /** As Laravel's own locks (its testCannotAcquireLockTwice): a held lock is not had again, not even by its owner. */
    public function testTheSameOwnerCannotTakeItTwice(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10, 'owner-a');
        $this->assertTrue($lock->get());
        $this->server()->cmd('PEXPIRE', $this->key($name), '2000');

        $this->assertFalse($lock->get(), 'its own lock again');
        $this->assertFalse($store->restoreLock($name, 'owner-a')->get(), 'nor through restoreLock()');
        $this->assertFalse($store->lock($name, 0, 'owner-a')->get(), 'nor without expiry');
        $this->assertLessThanOrEqual(2000, $this->pttl($name), 'not refreshed');
        $ran = false;
        $this->assertFalse($lock->get(function () use (&$ran) {
            $ran = true;
        }));
        $this->assertFalse($ran, 'the callback does not run');
        $this->assertSame('owner-a', $this->server()->cmd('GET', $this->key($name)), 'still the owner\'s');

        $this->assertTrue($lock->release());
        $this->assertTrue($lock->get(), 'free again: had');
        $this->assertTrue($lock->release());
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));
    }

    /** Laravel's testLockExpirationLowerBoundary: a lock of 0.1 s is its owner's again once it ended. */
    public function testTheOwnerHasItAgainOnlyAfterItExpired(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 0.1);
        $this->assertTrue($lock->get());
        $this->assertFalse($lock->get());
        usleep(200000);
        $this->assertTrue($lock->get());
        $this->assertTrue($lock->release());
    }

    public function testReleaseByTheWrongOwnerFailsAndLeavesIt(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10, 'owner-a');
        $this->assertTrue($lock->get());

        $this->assertFalse($store->lock($name, 10, 'owner-b')->release());
        $this->assertFalse($store->restoreLock($name, 'owner-b')->release());
        $this->assertSame('owner-a', $this->server()->cmd('GET', $this->key($name)));
        $this->assertTrue($lock->release());
    }

    public function testRestoreLockInTheSameProcessReleasesIt(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10);
        $this->assertTrue($lock->get());

        $restored = $store->restoreLock($name, $lock->owner());
        $this->assertSame($lock->owner(), $restored->owner());
        $this->assertTrue($restored->release());
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));
    }

    public function testForceReleaseFreesAnotherOwnersLock(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $this->assertTrue($store->lock($name, 10, 'owner-a')->get());

        $store->lock($name, 10, 'owner-b')->forceRelease();
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));
        $this->assertTrue($store->lock($name, 10, 'owner-b')->get());
        $store->lock($name)->forceRelease();
    }

    public function testGetWithACallbackReleasesAfterIt(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $result = $store->lock($name, 10)->get(function () use ($store, $name) {
            $this->assertFalse($store->lock($name, 10)->get(), 'held during the callback');
            return 'done';
        });

        $this->assertSame('done', $result);
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));
    }

    public function testGetWithACallbackReleasesWhenItThrows(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        try {
            $store->lock($name, 10)->get(static function (): void {
                throw new \DomainException('the callback failed');
            });
            $this->fail('the exception went missing');
        } catch (\DomainException $e) {
            $this->assertSame('the callback failed', $e->getMessage());
        }
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));
    }

    public function testGetWithACallbackDoesNotRunItWhenHeldElsewhere(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $holder = $store->lock($name, 10);
        $holder->get();

        $ran = false;
        $this->assertFalse($store->lock($name, 10)->get(function () use (&$ran): void {
            $ran = true;
        }));
        $this->assertFalse($ran);
        $holder->release();
    }

    public function testIsOwnedByCurrentProcessAsksRedis(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10, 'owner-a');
        $other = $store->lock($name, 10, 'owner-b');
        $this->assertFalse($lock->isOwnedByCurrentProcess(), 'not taken yet');

        $lock->get();
        $this->assertTrue($lock->isOwnedByCurrentProcess());
        $this->assertTrue($store->restoreLock($name, 'owner-a')->isOwnedByCurrentProcess());
        $this->assertFalse($other->isOwnedByCurrentProcess());

        $this->server()->cmd('DEL', $this->key($name));
        $this->assertFalse($lock->isOwnedByCurrentProcess(), 'gone from Redis: not owned');
        $this->assertFalse($lock->release());
    }

    public function testBetweenBlockedAttemptsSleepForIsAcceptedAndChangesNothing(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10);
        $this->assertSame($lock, $lock->betweenBlockedAttemptsSleepFor(5000));
        $this->assertTrue($lock->block(1));
        $this->assertTrue($lock->release());
    }

    public function testAnOwnerOfUpTo256BytesIsATokenForRedis(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $owner = str_repeat('o', RedisLockLock::MAX_OWNER_BYTES);
        $this->assertTrue($store->lock($name, 10, $owner)->get());
        $this->assertTrue($store->restoreLock($name, $owner)->release());
    }

    /** @dataProvider ownersTheExtensionRefuses (PHPUnit 9.6; 10+ reads the attribute) */
    #[\PHPUnit\Framework\Attributes\DataProvider('ownersTheExtensionRefuses')]
    public function testAnOwnerTheExtensionRefusesIsAValueErrorAtLockTime(string $owner, string $why): void
    {
        $store = $this->newStore();
        try {
            $store->lock($this->uniqueName(), 10, $owner);
            $this->fail('accepted an owner with ' . $why);
        } catch (\ValueError $e) {
            $this->assertStringContainsString('lock owner must be 1 to 256 bytes without a NUL byte', $e->getMessage());
            $this->assertStringNotContainsString('secret', $e->getMessage(), 'the owner is not shown');
        }
    }

    public static function ownersTheExtensionRefuses(): array
    {
        return [
            'empty' => ['', 'no byte'],
            'too long' => [str_repeat('secret', 43), '258 bytes'],
            'a NUL byte' => ["secret\0owner", 'a NUL byte'],
        ];
    }
}
