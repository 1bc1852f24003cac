<?php
/*
 * What a safety run locks on, and the faults it can inject there. One class
 * per kind of deployment (this file: independent nodes, for RedisLock and
 * RedLock; topology_sentinel.php, topology_cluster.php); the faults every
 * kind has (a holder paused, CLIENT KILL, SCRIPT FLUSH) are here.
 *
 * A fault's injection sleeps for as long as the fault lasts and returns
 * whether calls may fail meanwhile (the quorum, or the only node, was out of
 * reach); whether it can make the lock be held twice without fencing is
 * the topology's prediction (overlapsPredicted), which the schedule checks
 * and docs/DESIGN.md explains. A topology is made with its mode's arguments,
 * the fault, and the time by which every helper process it starts (a proxy)
 * must be gone.
 */
require_once __DIR__ . '/../redislock_test.inc';

abstract class RlSafetyTopology
{
    /** Faults of every kind. */
    public const COMMON_FAULTS = ['none', 'holder-pause', 'client-kill', 'script-flush'];

    /** How the workers make the lock: [class, server(s), options]. */
    abstract public function lock(): array;

    /** "host:port" of every server that may hold the lock's keys now. */
    abstract public function dataAddrs(): array;

    /** The faults of this kind, beyond COMMON_FAULTS. */
    public const OWN_FAULTS = [];

    /** Injects one occurrence of one of OWN_FAULTS (see inject()). */
    abstract protected function injectOwn(string $fault, int $ttl): bool;

    /** Would $fault let the lock be held twice (a section begin inside another)? */
    abstract public function overlapsPredicted(string $fault): bool;

    abstract public function stop(): void;

    /** The lock's TTL for a run with $fault, and how long a section works
     * (µs range): a fault that takes a while to land (a restart, a
     * failover) needs sections long enough to be caught in, under their TTL. */
    public function timing(string $fault): array
    {
        return [400, [2000, 20000]];
    }

    public static function faults(): array
    {
        return array_merge(self::COMMON_FAULTS, static::OWN_FAULTS);
    }

    /**
     * One occurrence of $fault. $workers: the clients (RlTestChild); the
     * store names the current holder. Returns whether calls may fail.
     */
    public function inject(string $fault, array $workers, RlTestRedis $store, int $ttl): bool
    {
        switch ($fault) {
        case 'none':
            return false;
        case 'holder-pause':                 // the holder, longer than the TTL: the lock expires under it
            // stopped inside its section (between its read and its write,
            // as a GC pause would), not between two of them
            $holder = null;
            rl_wait_until(function () use ($store, &$holder) {
                $holder = $store->get('holder');
                return $holder !== null;
            }, 1.0, 0.001);
            $w = $workers[(int)($holder ?? mt_rand(0, count($workers) - 1))];
            $w->signal(SIGSTOP);
            usleep($ttl * 2500);
            $w->signal(SIGCONT);
            return false;
        case 'client-kill':
            $addrs = $this->dataAddrs();
            (new RlTestRedis($addrs[mt_rand(0, count($addrs) - 1)]))->clientKillAllExceptMe();
            return false;
        case 'script-flush':
            foreach ($this->dataAddrs() as $a) (new RlTestRedis($a))->scriptFlush();
            return false;
        }
        in_array($fault, static::OWN_FAULTS, true) || throw new ValueError("fault $fault does not apply here");
        return $this->injectOwn($fault, $ttl);
    }

    /** $k distinct indexes out of $n, in a seeded (mt_srand) order. */
    public static function pick(int $n, int $k): array
    {
        $all = range(0, $n - 1);
        for ($i = $n - 1; $i > 0; $i--) {
            $j = mt_rand(0, $i);
            [$all[$i], $all[$j]] = [$all[$j], $all[$i]];
        }
        return array_slice($all, 0, $k);
    }
}
