<?php
declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

require_once __DIR__ . '/LaravelTestCase.php';
require_once __DIR__ . '/ChildProcess.php';

/**
 * $seconds = 0 (Laravel: no expiry): a TTL in Redis all the same, kept
 * alive by the extension's watchdog while the holder lives. A short TTL
 * here keeps the suite fast.
 */
final class RedisLockWithoutExpiryTest extends LaravelTestCase
{
    private const TTL_MS = 600;

    public function testTheKeyHasATtlAndOutlivesIt(): void
    {
        $store = $this->newStore(self::TTL_MS);
        $name = $this->uniqueName();
        $lock = $store->lock($name);
        $this->assertTrue($lock->get());

        $pttl = $this->pttl($name);
        $this->assertGreaterThan(0, $pttl, 'never a key without TTL (-1)');
        $this->assertLessThanOrEqual(self::TTL_MS, $pttl);

        usleep(3 * self::TTL_MS * 1000);
        $pttl = $this->pttl($name);
        $this->assertGreaterThan(0, $pttl, 'extended by the watchdog');
        $this->assertLessThanOrEqual(self::TTL_MS, $pttl);
        $this->assertSame($lock->owner(), $this->server()->cmd('GET', $this->key($name)));
        $this->assertFalse($store->lock($name, 10)->get(), 'still held');

        $this->assertTrue($lock->release());
        $this->assertSame(0, $this->server()->cmd('EXISTS', $this->key($name)));
    }

    public function testANegativeSecondsIsNoExpiryToo(): void
    {
        $store = $this->newStore(self::TTL_MS);
        $name = $this->uniqueName();
        $lock = $store->lock($name, -5);
        $this->assertTrue($lock->get());
        $pttl = $this->pttl($name);
        $this->assertGreaterThan(0, $pttl);
        $this->assertLessThanOrEqual(self::TTL_MS, $pttl);
        $lock->release();
    }

    public function testTheLockOfADeadHolderExpiresWithinTheTtl(): void
    {
        $name = $this->uniqueName();
        $child = ChildProcess::run(function (ChildProcess $child) use ($name): void {
            $child->send($this->newStore(self::TTL_MS)->lock($name)->get() ? 'held' : 'not acquired');
            usleep(10_000_000); // killed by the parent before
        });
        $this->assertSame('held', $child->receive());
        $child->wait(kill: true);
        $killed = microtime(true);

        $this->assertTrue($this->newStore()->lock($name, 10)->block(5), 'taken once the TTL ran out');
        $this->assertLessThan(self::TTL_MS / 1000 + 0.5, microtime(true) - $killed);
        $this->server()->cmd('DEL', $this->key($name));
    }
}
