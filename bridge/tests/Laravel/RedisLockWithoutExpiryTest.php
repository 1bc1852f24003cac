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

    /**
     * Counts, no clock (issue 31): the dead holder's key, seen with at most
     * the TTL left, is had by a wait its own timer ended (the holder's TTL),
     * not a release's wake. A round where the key was gone before the wait
     * began (the machine slow between the kill and the look) shows nothing
     * and runs again, 3 rounds at most.
     */
    public function testTheLockOfADeadHolderExpiresWithinTheTtl(): void
    {
        for ($round = 1;; $round++) {
            $name = $this->uniqueName();
            $child = ChildProcess::run(function (ChildProcess $child) use ($name): void {
                $child->send($this->newStore(self::TTL_MS)->lock($name)->get() ? 'held' : 'not acquired');
                usleep(30_000_000); // killed by the parent before
            });
            $this->assertSame('held', $child->receive(30.0));
            $child->wait(kill: true);

            $store = $this->newStore();
            $pttl = $this->pttl($name);
            $before = \RedisLock::stats();
            $this->assertTrue(
                $store->lock($name, 10)->block(30),
                'taken once the TTL ran out (30 s: only a failure waits it out)'
            );
            $after = \RedisLock::stats();
            $this->server()->cmd('DEL', $this->key($name));
            if ($pttl > 0 || $round === 3) {
                break;
            }
            fwrite(STDERR, "round $round: the key was gone before the wait: run again\n");
        }
        $seen = json_encode(array_map(
            fn ($k) => $after[$k] - $before[$k],
            ['woken' => 'waits_woken', 'rechecked' => 'waits_rechecked', 'errors' => 'wake_errors']
        ));
        $this->assertGreaterThan(0, $pttl, 'the dead holder\'s key was there when the wait began');
        $this->assertLessThanOrEqual(self::TTL_MS, $pttl, 'with at most its TTL left: no longer life at its death');
        $this->assertSame(0, $after['waits_woken'] - $before['waits_woken'], "not woken: nobody released it ($seen)");
        $this->assertGreaterThanOrEqual(
            1,
            $after['waits_rechecked'] - $before['waits_rechecked'],
            "ended by the TTL ($seen)"
        );
        $this->assertSame(0, $after['wake_errors'] - $before['wake_errors'], $seen);
    }
}
