<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Cache\ArrayStore;
use Illuminate\Cache\Repository;
use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Cache\Store;
use RedisLock\Bridge\Laravel\RedisLockLock;

require_once __DIR__ . '/LaravelTestCase.php';

/** The store: cache calls to the inner store, locks from the extension. */
final class RedisLockStoreTest extends LaravelTestCase
{
    public function testCacheCallsGoToTheInnerStore(): void
    {
        $inner = new ArrayStore();
        $store = $this->newStore(inner: $inner);
        $this->assertInstanceOf(Store::class, $store);
        $this->assertInstanceOf(LockProvider::class, $store);

        $this->assertTrue($store->put('a', 'one', 60));
        $this->assertSame('one', $inner->get('a'));
        $this->assertSame('one', $store->get('a'));
        $this->assertTrue($store->putMany(['b' => 2, 'c' => 3], 60));
        $this->assertSame(['a' => 'one', 'b' => 2, 'x' => null], $store->many(['a', 'b', 'x']));
        $this->assertSame(3, $store->increment('b'));
        $this->assertSame(1, $store->decrement('b', 2));
        $this->assertTrue($store->forever('d', 'kept'));
        $this->assertSame('kept', $inner->get('d'));
        $this->assertTrue($store->forget('a'));
        $this->assertNull($inner->get('a'));
        $this->assertSame($inner->getPrefix(), $store->getPrefix());
        $this->assertTrue($store->flush());
        $this->assertNull($inner->get('d'));
        $this->assertSame($inner, $store->innerStore());
        $this->assertSame(0, $this->server()->cmd('EXISTS', 'a'), 'nothing cached in the locks\' Redis');
    }

    public function testTheRepositoryUsesTheInnerStoreAndOurLocks(): void
    {
        $inner = new ArrayStore();
        $cache = new Repository($this->newStore(inner: $inner));

        $this->assertTrue($cache->add('k', 'first', 60));
        $this->assertFalse($cache->add('k', 'second', 60));
        $this->assertSame('first', $inner->get('k'));
        $this->assertSame(7, $cache->remember('r', 60, fn (): int => 7));

        $name = $this->uniqueName();
        $lock = $cache->lock($name, 10);
        $this->assertInstanceOf(RedisLockLock::class, $lock);
        $this->assertTrue($lock->get());
        $this->assertSame($lock->owner(), $this->server()->cmd('GET', $this->key($name)));
        $this->assertTrue($inner->lock($name, 10)->get(), 'ours is not the inner store\'s lock');
        $this->assertTrue($cache->restoreLock($name, $lock->owner())->release());
    }

    public function testLockNamesTakeThePrefixAfterTheExtensionsOwn(): void
    {
        $store = $this->newStore();
        $this->assertSame(self::LOCK_PREFIX, $store->lockPrefix());
        $name = $this->uniqueName();
        $lock = $store->lock($name, 10);
        $lock->get();
        $this->assertSame(1, $this->server()->cmd('EXISTS', 'lock:' . self::LOCK_PREFIX . $name));
        $lock->release();
    }

    public function testTheTtlInRedisIsTheLocksSecondsOrTheWatchdogsTtl(): void
    {
        $store = $this->newStore(5000);
        $this->assertSame(10000, $store->lock('x', 10)->ttlMs());
        $this->assertSame(1500, $store->lock('x', 1.5)->ttlMs());
        $this->assertSame(5000, $store->lock('x')->ttlMs());
        $this->assertSame(5000, $store->restoreLock('x', 'someone')->ttlMs());
        try {
            $store->lock('x', INF);
            $this->fail('a lock for INF seconds');
        } catch (\InvalidArgumentException $e) {
            $this->assertSame('a TTL of INF seconds is out of range', $e->getMessage());
        }
    }

    public function testTagsAreTheInnerStores(): void
    {
        $inner = new ArrayStore();
        $cache = new Repository($this->newStore(inner: $inner));
        $cache->tags(['t'])->put('k', 'v', 60);
        $this->assertSame('v', (new Repository($inner))->tags(['t'])->get('k'));
    }

    public function testTagsNeedAnInnerStoreWithTags(): void
    {
        $this->expectException(\BadMethodCallException::class);
        $this->expectExceptionMessage('does not support tags');
        require_once __DIR__ . '/StoreWithoutTags.php'; // implements Illuminate's Store: loaded once the framework is
        $this->newStore(inner: new StoreWithoutTags())->tags(['t']);
    }

    public function testOtherMethodsOfTheInnerStoreAreReachable(): void
    {
        $inner = new ArrayStore();
        $store = $this->newStore(inner: $inner);
        $store->put('k', 'v', 60);
        $this->assertFalse($store->add('k', 'w', 60), 'the inner store\'s atomic add()');

        $this->expectException(\BadMethodCallException::class);
        $store->noSuchMethod();
    }

    public function testTheInnerStoresLocksAreNotFlushedForOurs(): void
    {
        $inner = new class extends ArrayStore {
            public int $flushes = 0;

            public function flushLocks(): bool
            {
                return (bool) ++$this->flushes;
            }

            public function hasSeparateLockStore(): bool
            {
                return true;
            }
        };
        $store = $this->newStore(inner: $inner);
        foreach (['flushLocks', 'hasSeparateLockStore'] as $method) {
            try {
                $store->$method();
                $this->fail("$method() went to the inner store");
            } catch (\BadMethodCallException $e) {
                $this->assertSame(
                    "the redislock cache store cannot $method(): its locks are not the inner store's",
                    $e->getMessage()
                );
            }
        }
        $this->assertSame(0, $inner->flushes);
    }
}
