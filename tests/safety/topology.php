<?php
/*
 * What a safety run locks on, and the faults it can inject there. One class
 * per kind of deployment (this file: independent nodes, for RedisLock and
 * RedLock; topology_sentinel.php, topology_cluster.php); the faults every
 * kind has (a holder paused, CLIENT KILL, SCRIPT FLUSH) are here.
 *
 * An occurrence of a fault is a coroutine (a Generator that yields the
 * microseconds it waits and returns its windows, now.php), so that the
 * seeded generator of the 'nemesis' fault runs several side by side;
 * inject() runs one to its end and returns its windows. A window says when
 * the fault, and what the theory says follows from it, lasted, whether calls
 * may fail meanwhile, and what this occurrence may break without fencing
 * (mayBreak() lists it by fault, for the table; docs/design/safety.md explains).
 * A topology is made with its mode's arguments, the fault, and the time by
 * which every helper process it starts (a proxy) must be gone.
 */
require_once __DIR__ . '/../redislock_test.inc';
require_once __DIR__ . '/now.php';

abstract class RlSafetyTopology
{
    /** Faults of every kind. */
    public const COMMON_FAULTS = ['none', 'holder-pause', 'client-kill', 'script-flush'];

    /** How the workers make the lock: [class, server(s), options]. */
    abstract public function lock(): array;

    /** How worker $w makes it (a fault that hits some clients gives each its own addresses). */
    public function lockFor(int $w): array
    {
        return $this->lock();
    }

    /** "host:port" of every server that may hold the lock's keys now. */
    abstract public function dataAddrs(): array;

    /** The faults of this kind, beyond COMMON_FAULTS. */
    public const OWN_FAULTS = [];

    /** One occurrence of one of OWN_FAULTS: a coroutine as occurrence()'s. */
    abstract protected function own(string $fault, array $workers, int $ttl): Generator;

    /**
     * What an occurrence of $fault may break without fencing: 'exclusion'
     * (the servers forget a held lock: two holders' own views overlap),
     * 'writes' (a holder goes on past its validity). The union over its
     * occurrences; each window says its own.
     */
    public function mayBreak(string $fault): array
    {
        return $fault === 'holder-pause' ? ['writes'] : [];
    }

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
     * One occurrence of $fault (the 'nemesis': several, see nemesis()).
     * $workers: the clients (RlTestChild, worker w at index w); the store
     * names the current holder. Returns its windows.
     */
    public function inject(string $fault, array $workers, RlTestRedis $store, int $ttl): array
    {
        in_array($fault, static::faults(), true) || throw new ValueError("fault $fault does not apply here");
        return $fault === 'nemesis' ? $this->nemesis($workers, $store, $ttl)
            : self::drive([$this->occurrence($fault, $workers, $store, $ttl)]);
    }

    /** One occurrence of $fault: yields the µs it waits, returns its windows. */
    public function occurrence(string $fault, array $workers, RlTestRedis $store, int $ttl): Generator
    {
        $start = rl_safety_now();
        switch ($fault) {
        case 'none':
            return [];
        case 'holder-pause':                 // the holder, longer than the TTL: the lock expires under it
            // stopped inside its section (between its read and its write,
            // as a GC pause would), not between two of them
            for ($i = 0; $i < 1000 && ($holder = $store->get('holder')) === null; $i++) {
                yield 1000;
            }
            $w = (int)($holder ?? mt_rand(0, count($workers) - 1));
            $start = rl_safety_now();
            $workers[$w]->signal(SIGSTOP);
            yield $ttl * 2500;
            $workers[$w]->signal(SIGCONT);
            yield $ttl * 1000;               // its section goes on, and writes, within a TTL
            // its own calls in flight time out
            return [self::window($fault, $start, true, ['writes'], [$w])];
        case 'client-kill':
            $addrs = $this->dataAddrs();
            (new RlTestRedis($addrs[mt_rand(0, count($addrs) - 1)]))->clientKillAllExceptMe();
            return [self::window($fault, $start, false, [])];
        case 'script-flush':
            foreach ($this->dataAddrs() as $a) (new RlTestRedis($a))->scriptFlush();
            return [self::window($fault, $start, false, [])];
        }
        in_array($fault, static::OWN_FAULTS, true) || throw new ValueError("fault $fault does not apply here");
        return yield from $this->own($fault, $workers, $ttl);
    }

    /** The faults the nemesis picks from. */
    protected function nemesisFaults(): array
    {
        return array_values(array_diff(static::faults(), ['none', 'nemesis']));
    }

    /** The faults that make nodes slow or out of reach (for some clients, or all). */
    protected function impairs(string $fault): bool
    {
        return false;
    }

    /**
     * The seeded generator of combined faults: 2 to 4 occurrences of faults
     * picked from nemesisFaults(), each starting at a seeded time within 0 to
     * 3 s, so that some overlap and some follow one another; one window (or
     * more) each. Every occurrence draws from its own seed, so what it does
     * does not depend on how the others' steps interleave with it.
     */
    protected function nemesis(array $workers, RlTestRedis $store, int $ttl): array
    {
        $kinds = $this->nemesisFaults();
        $plan = [];
        for ($i = mt_rand(2, 4); $i > 0; $i--) {
            $plan[] = [mt_rand(0, 3000) * 1000, $kinds[mt_rand(0, count($kinds) - 1)], mt_rand()];
        }
        $after = mt_rand();
        $occurrences = array_map(fn($p) => $this->after($p[0], $this->occurrence($p[1], $workers, $store, $ttl)), $plan);
        $windows = self::drive($occurrences, array_column($plan, 2));
        mt_srand($after);
        // two that make nodes slow or out of reach may together take what
        // neither takes alone (a minority paused, another cut off; a request
        // delayed, its reply delayed close to the TTL): while they overlap,
        // calls may fail
        foreach ($windows as $i => $a) {
            foreach ($windows as $j => $b) {
                if ($i !== $j && $this->impairs($a['fault']) && $this->impairs($b['fault'])
                    && $a['start'] <= $b['end'] && $b['start'] <= $a['end']) {
                    $windows[$i]['quorum'] = true;
                    unset($windows[$i]['clients']);
                }
            }
        }
        return $windows;
    }

    private function after(int $us, Generator $g): Generator
    {
        yield $us;
        return yield from $g;
    }

    /**
     * Runs the occurrences side by side, each step when its wait is over,
     * and returns their windows by start. With $seeds, the random source is
     * seeded before each step of an occurrence from its seed and the step's
     * number.
     */
    public static function drive(array $occurrences, ?array $seeds = null): array
    {
        $due = $steps = [];
        $windows = [];
        $resume = function (int $i, bool $first) use (&$occurrences, &$due, &$steps, &$windows, $seeds) {
            $g = $occurrences[$i];
            if ($seeds !== null) {
                mt_srand($seeds[$i] + ($steps[$i] = ($steps[$i] ?? 0) + 1));
            }
            $first ? $g->current() : $g->next();
            if ($g->valid()) {
                $due[$i] = hrtime(true) + max(0, (int)$g->current()) * 1000;
            } else {
                unset($due[$i]);
                array_push($windows, ...$g->getReturn());
            }
        };
        foreach (array_keys($occurrences) as $i) {
            $resume($i, true);
        }
        while ($due) {
            asort($due);
            $i = array_key_first($due);
            $wait = intdiv($due[$i] - hrtime(true), 1000);
            if ($wait > 0) {
                usleep($wait);
            }
            $resume($i, false);
        }
        usort($windows, fn($a, $b) => $a['start'] <=> $b['start']);
        return $windows;
    }

    /** A window of $fault from $start to now (now.php); $clients: the clients it hits, when not all. */
    protected static function window(string $fault, int $start, bool $quorum, array $breaks, ?array $clients = null): array
    {
        $w = ['fault' => $fault, 'start' => $start, 'end' => rl_safety_now(), 'quorum' => $quorum, 'breaks' => $breaks];
        if ($clients !== null) {
            sort($clients);
            $w['clients'] = $clients;
        }
        return $w;
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
