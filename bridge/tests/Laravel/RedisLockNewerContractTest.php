<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Cache\ArrayStore;
use Illuminate\Support\Carbon;

require_once __DIR__ . '/LaravelTestCase.php';

/**
 * What newer Laravel declares (refresh() in 12, isOwnedBy() in 11,
 * isLocked() in 13, Store::touch() in 13): the same class answers on
 * every version, Laravel 8 included.
 */
final class RedisLockNewerContractTest extends LaravelTestCase
{
    public function testRefreshSetsTheLocksTtlAgainWhileItIsHeld(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10);
        $this->assertTrue($lock->get());
        $this->server()->cmd('PEXPIRE', $this->key($name), '2000');

        $this->assertTrue($lock->refresh());
        $this->assertGreaterThan(8000, $this->pttl($name), 'its own seconds again');
        $this->assertTrue($lock->refresh(30));
        $this->assertGreaterThan(28000, $this->pttl($name));
        $this->assertTrue($lock->refresh(0.5));
        $this->assertLessThanOrEqual(500, $this->pttl($name));
        $this->assertTrue($store->restoreLock($name, $lock->owner())->refresh(20), 'also by its owner elsewhere');
        $this->assertGreaterThan(18000, $this->pttl($name));
        $this->assertTrue($lock->release());
    }

    public function testRefreshWithoutExpiryIsTheTtlInRedisAgainNeverNone(): void
    {
        $store = $this->newStore(autoExtendTtlMs: 4000);
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10);
        $this->assertTrue($lock->get());

        $this->assertTrue($lock->refresh(0));
        $pttl = $this->pttl($name);
        $this->assertGreaterThan(8000, $pttl, 'a lock with seconds: its seconds');
        $this->assertLessThanOrEqual(10000, $pttl);
        $lock->release();

        $forever = $store->lock($name);
        $this->assertTrue($forever->get());
        $this->server()->cmd('PEXPIRE', $this->key($name), '1000');
        $this->assertTrue($forever->refresh());
        $this->assertGreaterThan(3000, $this->pttl($name), 'a lock without expiry: the watchdog\'s TTL');
        $this->assertTrue($forever->release());
    }

    public function testRefreshOfALockNotHeldIsFalseAndTakesNothing(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $this->assertFalse($store->lock($name, 10)->refresh(), 'never taken');
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));

        $holder = $store->lock($name, 10, 'owner-a');
        $this->assertTrue($holder->get());
        $this->server()->cmd('PEXPIRE', $this->key($name), '3000');
        $this->assertFalse($store->lock($name, 10, 'owner-b')->refresh(60), 'another owner\'s lock');
        $this->assertLessThanOrEqual(3000, $this->pttl($name), 'its TTL unchanged');

        $this->server()->cmd('DEL', $this->key($name));
        $this->assertFalse($holder->refresh(), 'lost (expired, forced away)');
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));
    }

    public function testRefreshRefusesSecondsThatAreNotATtl(): void
    {
        $store = $this->newStore();
        $lock = $store->lock($this->uniqueName(), 10);
        $this->assertTrue($lock->get());
        foreach (['ten', NAN] as $seconds) {
            try {
                $lock->refresh($seconds);
                $this->fail('refreshed for no number of seconds');
            } catch (\InvalidArgumentException $e) {
                $this->assertSame(
                    'refresh() takes a number of seconds or null, not ' . get_debug_type($seconds),
                    $e->getMessage()
                );
            }
        }
        foreach ([INF, 1e30] as $seconds) {
            try {
                $lock->refresh($seconds);
                $this->fail("refreshed for $seconds seconds");
            } catch (\InvalidArgumentException $e) {
                $this->assertSame("a TTL of $seconds seconds is out of range", $e->getMessage());
            }
        }
        $this->assertTrue($lock->release(), 'still held: the bad refresh changed nothing');
    }

    public function testIsOwnedByAsksRedisAboutThatOwner(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10, 'owner-a');
        $this->assertFalse($lock->isOwnedBy('owner-a'), 'not taken yet');

        $this->assertTrue($lock->get());
        $this->assertTrue($lock->isOwnedBy('owner-a'));
        $this->assertTrue($store->lock($name, 10, 'owner-b')->isOwnedBy('owner-a'), 'from any lock object');
        $this->assertFalse($lock->isOwnedBy('owner-b'));
        $this->assertFalse($lock->isOwnedBy(''), 'an owner the extension refuses holds nothing');
        $this->assertFalse($lock->isOwnedBy("owner-a\0"));

        $lock->release();
        $this->assertFalse($lock->isOwnedBy('owner-a'));
    }

    public function testIsLockedSaysWhetherAnyOwnerHoldsIt(): void
    {
        $store = $this->newStore();
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10, 'owner-a');
        $other = $store->lock($name, 10, 'owner-b');
        $this->assertFalse($other->isLocked(), 'nobody holds it yet');
        $this->assertTrue($other->isOwnedBy(null), 'owned by nobody');

        $this->assertTrue($lock->get());
        $this->assertTrue($other->isLocked(), 'held by another owner');
        $this->assertTrue($lock->isLocked());
        $this->assertFalse($other->isOwnedBy(null));
        $this->assertTrue($lock->isOwnedByCurrentProcess(), 'the question took nothing and freed nothing');
        $this->assertFalse($other->get(), 'nor did it free the lock for another owner');

        $this->assertTrue($lock->release());
        $this->assertFalse($other->isLocked(), 'released');
        $this->assertTrue($other->isOwnedBy(null));
    }

    public function testTouchSetsTheTtlOfACachedItem(): void
    {
        $inner = new ArrayStore();
        $store = $this->newStore(inner: $inner);
        $store->put('touched', 'v', 1);
        $store->put('untouched', 'w', 1);
        $this->assertTrue($store->touch('touched', 60));
        $this->assertFalse($store->touch('missing', 60), 'nothing cached: nothing touched');
        try {
            Carbon::setTestNow(Carbon::now()->addSeconds(10));
            $this->assertSame('v', $store->get('touched'), 'kept for the new TTL');
            $this->assertNull($store->get('untouched'), 'gone after its own');
            $this->assertNull($store->get('missing'));
        } finally {
            Carbon::setTestNow();
        }
    }
}
