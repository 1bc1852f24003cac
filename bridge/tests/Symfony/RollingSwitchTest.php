<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Symfony;

use RedisLock\Bridge\Symfony\RedisLockStore;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\PersistingStoreInterface;
use Symfony\Component\Lock\Store\RedisStore;

/**
 * A rolling switch from Symfony's own RedisStore to ours: old and new code
 * side by side on one server, each store finding the other's locks held,
 * whoever came first and whatever the kind (write or read lock).
 */
final class RollingSwitchTest extends SymfonyTestCase
{
    protected function framework(): string
    {
        return 'Symfony/Component/Lock/autoload.php';
    }

    protected function setUp(): void
    {
        parent::setUp();
        if (!extension_loaded('redis') && !bridge_framework('Predis/autoload.php')) {
            $this->markTestSkipped(
                'Symfony\'s own RedisStore needs a Redis client: phpredis or Predis (Debian: php-redis, php-predis)'
            );
        }
    }

    /** Symfony's own store on phpredis, or on Predis where this PHP has no phpredis (sid's PHP 8.5). */
    private function symfonyStore(): RedisStore
    {
        if (!extension_loaded('redis')) {
            return new RedisStore(new \Predis\Client(['host' => $this->redis->host, 'port' => $this->redis->port]));
        }
        $redis = new \Redis();
        $redis->connect($this->redis->host, $this->redis->port);
        return new RedisStore($redis);
    }

    /** Ours with its defaults: Symfony's key names. */
    private function ourStore(): RedisLockStore
    {
        return RedisLockStore::fromServers($this->redis->address());
    }

    /** @return array<string, array{string, string, string, string}> the first holder's store and kind, the second's */
    public static function combinations(): array
    {
        $all = [];
        foreach ([['ours', 'symfony'], ['symfony', 'ours']] as [$first, $second]) {
            foreach (['write', 'read'] as $firstKind) {
                foreach (['write', 'read'] as $secondKind) {
                    $all["$first $firstKind, then $second $secondKind"] = [$first, $firstKind, $second, $secondKind];
                }
            }
        }
        return $all;
    }

    /** @dataProvider combinations (PHPUnit 9.6; 10+ reads the attribute) */
    #[\PHPUnit\Framework\Attributes\DataProvider('combinations')]
    public function testEachStoreFindsTheOthersLockHeld(
        string $first,
        string $firstKind,
        string $second,
        string $secondKind
    ): void {
        $stores = ['ours' => $this->ourStore(), 'symfony' => $this->symfonyStore()];
        $name = $this->resource('switch');
        $held = new Key($name);
        $this->save($stores[$first], $held, $firstKind);
        $other = new Key($name);
        try {
            $this->save($stores[$second], $other, $secondKind);
            $this->fail("the $second store took a lock the $first store holds");
        } catch (LockConflictedException) {
        }
        $this->assertTrue($stores[$first]->exists($held), 'the holder keeps it');
        $this->assertFalse($stores[$second]->exists($other));

        $stores[$first]->delete($held);
        $this->save($stores[$second], $other, $secondKind);
        $this->assertTrue($stores[$second]->exists($other), 'free again: taken');
        $stores[$second]->delete($other);
        $this->assertSame(0, $this->redis->cmd('EXISTS', $name));
    }

    /** 4 processes, each switching store every round: never two holders at once. */
    public function testProcessesOnBothStoresNeverHoldItTogether(): void
    {
        $name = $this->resource('together');
        $inside = $name . '-inside';
        $pids = [];
        for ($p = 0; $p < 4; $p++) {
            $pids[] = $this->fork(function () use ($p, $name, $inside): string {
                $stores = [$this->ourStore(), $this->symfonyStore()];
                $redis = $this->redis->client();
                $overlaps = 0;
                for ($round = 0; $round < 30; $round++) {
                    $store = $stores[($p + $round) % 2];
                    $key = new Key($name);
                    for ($deadline = microtime(true) + 20;;) {
                        try {
                            $store->save($key);
                            break;
                        } catch (LockConflictedException) {
                            if (microtime(true) > $deadline) {
                                return "round $round: not had in 20 s";
                            }
                            usleep(random_int(200, 2000));
                        }
                    }
                    $overlaps += $redis->cmd('INCR', $inside) === 1 ? 0 : 1;
                    usleep(300);
                    $redis->cmd('DECR', $inside);
                    $store->delete($key);
                }
                return "$overlaps overlaps";
            });
        }
        foreach ($pids as $pid) {
            $this->assertSame('0 overlaps', $this->waitChild($pid));
        }
        $this->redis->cmd('DEL', $inside);
    }

    private function save(PersistingStoreInterface $store, Key $key, string $kind): void
    {
        if ($kind === 'read') {
            $store->saveRead($key);
        } else {
            $store->save($key);
        }
    }
}
