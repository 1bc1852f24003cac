<?php
/*
 * The userland code PHP users would otherwise run, written the way the seed
 * documents (shared/seeds) and the popular libraries do it, each behind the
 * same two calls so that bench scripts can time them side by side
 * (bench_cycles()).
 */

require_once __DIR__ . '/libs.php';

interface BenchLock
{
    public function lock(string $resource, int $ttl): ?string;
    public function unlock(string $resource, string $token): bool;
}

const BENCH_RELEASE_LUA = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

/** Mean µs per lock + unlock cycle over $cycles cycles. */
function bench_cycles(BenchLock $l, string $resource, int $cycles): float
{
    $start = hrtime(true);
    for ($i = 0; $i < $cycles; $i++) {
        $t = $l->lock($resource, 10000);
        if ($t === null) {
            throw new RuntimeException(get_class($l) . ': lock not acquired');
        }
        $l->unlock($resource, $t);
    }
    return (hrtime(true) - $start) / 1e3 / $cycles;
}

/** The extension, either class. */
final class ExtLock implements BenchLock
{
    public function __construct(private RedisLock|RedLock $impl) {}
    public function lock(string $resource, int $ttl): ?string { return $this->impl->lock($resource, $ttl); }
    public function unlock(string $resource, string $token): bool { return $this->impl->unlock($resource, $token); }
}

/**
 * phpredis as in the seeds: SET NX PX, Lua release with EVAL; for a quorum,
 * the nodes one after another, with the validity check and the undo.
 */
final class PhpredisSequentialLock implements BenchLock
{
    /** @var Redis[] */
    private array $nodes = [];

    public function __construct(array $servers)
    {
        foreach ($servers as [$host, $port]) {
            $r = new Redis();
            $r->pconnect($host, $port, 1.0);
            $this->nodes[] = $r;
        }
    }

    public function lock(string $resource, int $ttl): ?string
    {
        $key = 'lock:' . $resource;
        $token = bin2hex(random_bytes(16));
        $quorum = intdiv(count($this->nodes), 2) + 1;
        $start = hrtime(true);
        $votes = 0;
        foreach ($this->nodes as $r) {
            if ($r->set($key, $token, ['nx', 'px' => $ttl])) {
                $votes++;
            }
        }
        $elapsed = (hrtime(true) - $start) / 1e6;
        $validity = $ttl - $elapsed - ($ttl * 0.01 + 2);
        if ($votes >= $quorum && $validity > 0) {
            return $token;
        }
        $this->unlock($resource, $token);
        return null;
    }

    public function unlock(string $resource, string $token): bool
    {
        $released = 0;
        foreach ($this->nodes as $r) {
            $released += (int)$r->eval(BENCH_RELEASE_LUA, ['lock:' . $resource, $token], 1);
        }
        return $released >= intdiv(count($this->nodes), 2) + 1;
    }
}

/**
 * Predis as in the seeds: a Predis\Client per node, SET key token PX ttl NX,
 * Lua release with EVAL; for a quorum, the nodes one after another. The
 * clients stay connected between calls (the seed's RedLock opens and closes
 * one per call, which would only cost more).
 */
final class PredisLock implements BenchLock
{
    /** @var \Predis\Client[] */
    private array $nodes = [];

    public function __construct(array $servers)
    {
        foreach ($servers as [$host, $port]) {
            $c = new \Predis\Client(['host' => $host, 'port' => $port, 'timeout' => 1.0, 'read_write_timeout' => 1.0]);
            $c->connect();
            $this->nodes[] = $c;
        }
    }

    public function lock(string $resource, int $ttl): ?string
    {
        $key = 'lock:' . $resource;
        $token = bin2hex(random_bytes(16));
        $start = hrtime(true);
        $votes = 0;
        foreach ($this->nodes as $c) {
            if ((string)$c->set($key, $token, 'PX', $ttl, 'NX') === 'OK') {
                $votes++;
            }
        }
        $validity = $ttl - (hrtime(true) - $start) / 1e6 - ($ttl * 0.01 + 2);
        if ($votes >= intdiv(count($this->nodes), 2) + 1 && $validity > 0) {
            return $token;
        }
        $this->unlock($resource, $token);
        return null;
    }

    public function unlock(string $resource, string $token): bool
    {
        $released = 0;
        foreach ($this->nodes as $c) {
            $released += (int)$c->eval(BENCH_RELEASE_LUA, 1, 'lock:' . $resource, $token);
        }
        return $released >= intdiv(count($this->nodes), 2) + 1;
    }
}

/**
 * symfony/lock as its users write it: a LockFactory over a RedisStore (one
 * node) or a CombinedStore with ConsensusStrategy over N RedisStores (each on
 * a \Redis connection), createLock($resource, $ttl), acquire(false),
 * release(). That is its real cost: acquire() saves and then refreshes the
 * TTL it was given, release() deletes and then checks exists(), each a Lua
 * EVAL per node, nodes in turn.
 */
final class SymfonyLock implements BenchLock
{
    private \Symfony\Component\Lock\LockFactory $factory;
    /** @var \Symfony\Component\Lock\LockInterface[] held locks by token */
    private array $held = [];
    private int $next = 0;

    public function __construct(array $servers)
    {
        $stores = [];
        foreach ($servers as [$host, $port]) {
            $r = new Redis();
            $r->pconnect($host, $port, 1.0);
            $stores[] = new \Symfony\Component\Lock\Store\RedisStore($r);
        }
        $store = count($stores) === 1 ? $stores[0]
            : new \Symfony\Component\Lock\Store\CombinedStore($stores, new \Symfony\Component\Lock\Strategy\ConsensusStrategy());
        $this->factory = new \Symfony\Component\Lock\LockFactory($store);
    }

    public function lock(string $resource, int $ttl): ?string
    {
        $lock = $this->factory->createLock('lock:' . $resource, $ttl / 1000, false);
        if (!$lock->acquire(false)) {
            return null;
        }
        $token = (string)++$this->next;
        $this->held[$token] = $lock;
        return $token;
    }

    public function unlock(string $resource, string $token): bool
    {
        $this->held[$token]->release();
        unset($this->held[$token]);
        return true;
    }
}

/** The floor: two PINGs (one per lock and unlock round trip) on one phpredis connection. */
final class PingFloor implements BenchLock
{
    private Redis $r;

    public function __construct(string $host, int $port)
    {
        $this->r = new Redis();
        $this->r->pconnect($host, $port, 1.0);
    }

    public function lock(string $resource, int $ttl): ?string { $this->r->ping(); return 'x'; }
    public function unlock(string $resource, string $token): bool { $this->r->ping(); return true; }
}
