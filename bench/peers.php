<?php
/*
 * The userland code PHP users would otherwise run, written the way the seed
 * documents (shared/seeds) and the popular libraries do it, each behind the
 * same two calls so that bench scripts can time them side by side.
 */

interface BenchLock
{
    public function lock(string $resource, int $ttl): ?string;
    public function unlock(string $resource, string $token): bool;
}

const BENCH_RELEASE_LUA = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

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
