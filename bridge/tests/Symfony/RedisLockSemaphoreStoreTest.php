<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Symfony;

use RedisLock\Bridge\Symfony\RedisLockSemaphoreStore;
use RedisLock\Bridge\Tests\RedisServer;
use Symfony\Component\Semaphore\Exception\InvalidArgumentException;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Exception\SemaphoreExpiredException;
use Symfony\Component\Semaphore\Key;
use Symfony\Component\Semaphore\SemaphoreFactory;

/** Symfony Semaphore on the extension's permits. */
final class RedisLockSemaphoreStoreTest extends SymfonyTestCase
{
    protected function framework(): string
    {
        return 'Symfony/Component/Semaphore/autoload.php';
    }

    private function store(): RedisLockSemaphoreStore
    {
        return RedisLockSemaphoreStore::fromServers($this->redis->address(), ['prefix' => 'sem:']);
    }

    public function testSaveExistsDelete(): void
    {
        $store = $this->store();
        $key = new Key($this->resource('sem'), 1);
        $this->assertFalse($store->exists($key));
        $store->save($key, 10.0);
        $this->assertTrue($store->exists($key));
        $store->delete($key);
        $this->assertFalse($store->exists($key));
    }

    public function testLimitHoldsAcrossKeysOfOneStore(): void
    {
        $store = $this->store();
        $name = $this->resource('limit');
        $keys = [new Key($name, 2), new Key($name, 2), new Key($name, 2)];
        $store->save($keys[0], 10.0);
        $store->save($keys[1], 10.0);
        try {
            $store->save($keys[2], 10.0);
            $this->fail('a third permit of 2');
        } catch (SemaphoreAcquiringException) {
        }
        $this->assertTrue($store->exists($keys[0]));
        $this->assertTrue($store->exists($keys[1]));
        $this->assertFalse($store->exists($keys[2]));
        $store->delete($keys[0]);
        $store->save($keys[2], 10.0);
        $this->assertTrue($store->exists($keys[2]));
        $this->assertSame(2, $this->redis->cmd('ZCARD', 'sem:' . $name));
    }

    public function testWeightTakesThatManyPermitsOrNone(): void
    {
        $store = $this->store();
        $name = $this->resource('weight');
        $heavy = new Key($name, 3, 2);
        $store->save($heavy, 10.0);
        $this->assertSame(2, $this->redis->cmd('ZCARD', 'sem:' . $name));
        $another = new Key($name, 3, 2);
        try {
            $store->save($another, 10.0);
            $this->fail('2 more permits of 3 with 2 taken');
        } catch (SemaphoreAcquiringException) {
        }
        $this->assertSame(2, $this->redis->cmd('ZCARD', 'sem:' . $name), 'the one it could take was given back');
        $light = new Key($name, 3, 1);
        $store->save($light, 10.0);
        $store->delete($heavy);
        $this->assertSame(1, $this->redis->cmd('ZCARD', 'sem:' . $name));
    }

    public function testPutOffExpirationAndExpiry(): void
    {
        $store = $this->store();
        $key = new Key($this->resource('expiry'), 1);
        $store->save($key, 10.0);
        $store->putOffExpiration($key, 0.3);
        $this->assertTrue($store->exists($key));
        usleep(450000);
        $this->assertFalse($store->exists($key));
        $this->expectException(SemaphoreExpiredException::class);
        $store->putOffExpiration($key, 10.0);
    }

    /** Symfony's store tests read this message (testPutOffExpirationWhenSaveHasNotBeenCalled). */
    public function testPutOffExpirationOfAKeyNeverSavedHasSymfonysMessage(): void
    {
        $resource = $this->resource('unsaved');
        $this->expectException(SemaphoreExpiredException::class);
        $this->expectExceptionMessage(
            sprintf('The semaphore "%s" has expired: the script returns a positive number.', $resource)
        );
        $this->store()->putOffExpiration(new Key($resource, 4, 2), 20.0);
    }

    public function testBadTtlRefused(): void
    {
        foreach ([0.0, -1.0, INF, NAN] as $ttl) {
            try {
                $this->store()->save(new Key($this->resource('ttl'), 1), $ttl);
                $this->fail("saved with a TTL of $ttl s");
            } catch (InvalidArgumentException $e) {
                $this->assertStringContainsString('The TTL should be greater than 0', $e->getMessage());
            }
        }
    }

    public function testRedLockListRefused(): void
    {
        $this->expectException(InvalidArgumentException::class);
        RedisLockSemaphoreStore::fromServers([$this->redis->address(), RedisServer::start()->address()]);
    }

    public function testSemaphoreFactory(): void
    {
        $factory = new SemaphoreFactory($this->store());
        $name = $this->resource('factory');
        $a = $factory->createSemaphore($name, 1, 1, 5.0);
        $b = $factory->createSemaphore($name, 1, 1, 5.0);
        $this->assertTrue($a->acquire());
        $this->assertFalse($b->acquire());
        $a->refresh(8.0);
        $this->assertGreaterThan(7000, $this->redis->cmd('PTTL', 'sem:' . $name));
        $a->release();
        $this->assertTrue($b->acquire());
        $this->assertTrue($b->isAcquired());
        unset($b); /* released at its destruction */
        $this->assertSame(0, $this->redis->cmd('EXISTS', 'sem:' . $name));
    }
}
