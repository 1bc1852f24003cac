<?php
/*
 * Independent redis-servers: one for RedisLock, five for RedLock. Their own
 * faults: servers paused, killed and restarted (empty, or with appendfsync
 * always); the network (proxy.php in front of every node, with a port per
 * worker so that a fault can hit some clients only): cut, delayed, reset,
 * losing bytes; clocks (clock_shift.c preloaded into every node) stepped
 * forward or back and drifting; memory filled past a small maxmemory with an
 * evicting policy; and the 'nemesis', which combines them.
 */
require_once __DIR__ . '/topology.php';
require_once __DIR__ . '/proxy.php';
require_once __DIR__ . '/clock.php';
require_once __DIR__ . '/reaper.php';

class RlSafetyNodes extends RlSafetyTopology
{
    public const OWN_FAULTS = ['server-pause', 'server-restart-empty', 'server-restart-aof',
                               'partition-requests', 'partition-replies', 'delay', 'clock-jump',
                               'grant-pause', 'late-replies', 'cut-both', 'cut-requests', 'cut-replies',
                               'conn-reset', 'packet-drop', 'clock-jump-many', 'clock-back', 'clock-drift',
                               'eviction', 'eviction-volatile', 'nemesis'];

    /** The evicting faults and the maxmemory-policy each sets. */
    private const EVICTION_POLICIES = ['eviction' => 'allkeys-lru', 'eviction-volatile' => 'volatile-lru'];

    /** Room left above used_memory while an evicting fault is on, and one filler's size: some 30 fillers fit (measured). */
    private const EVICTION_ROOM = 2 << 20;
    private const FILLER_BYTES = 32 << 10;

    /** The faults that need a proxy in front of every node, and those that need the nodes' clocks. */
    private const NET_FAULTS = ['partition-requests', 'partition-replies', 'delay', 'grant-pause', 'late-replies',
                                'cut-both', 'cut-requests', 'cut-replies', 'conn-reset', 'packet-drop', 'nemesis'];
    private const CLOCK_FAULTS = ['clock-jump', 'clock-jump-many', 'clock-back', 'clock-drift', 'nemesis'];

    /** Workers a proxy has a port for (run.php starts 4 by default). */
    public const MAX_CLIENTS = 8;

    /** The clients' reply timeout (run.php's): a held or delayed reply must come before it. */
    private const CALL_TIMEOUT_MS = 1000;

    /** @var RlTestServer[] */
    private array $nodes = [];
    /** @var RlSafetyProxy[] one per node when the fault is on the network */
    private array $proxies = [];
    /** @var RlSafetyClock[] one per node when the fault is on the clocks */
    private array $clocks = [];
    private RlSafetyReaper $reaper;
    private int $rules = 0;

    public function __construct(private int $n, private string $fault, float $deadline)
    {
        $aof = $fault === 'server-restart-aof' ? ['--appendonly', 'yes', '--appendfsync', 'always'] : [];
        for ($i = 0; $i < $n; $i++) {
            if (in_array($fault, self::CLOCK_FAULTS, true)) {
                $this->clocks[$i] = new RlSafetyClock();
                $this->nodes[] = $this->clocks[$i]->server($aof);
            } else {
                $this->nodes[] = new RlTestServer($aof);
            }
        }
        $this->reaper = new RlSafetyReaper($this->nodes);   // the proxies see to themselves
        if (in_array($fault, self::NET_FAULTS, true)) {
            foreach ($this->nodes as $node) {
                $this->proxies[] = new RlSafetyProxy($node->addr(), $deadline + 30.0, self::MAX_CLIENTS);
            }
        }
    }

    /** The processes it started: the nodes, the proxies, the reaper. */
    public function pids(): array
    {
        return array_merge(array_map(fn($n) => $n->pid(), $this->nodes), array_map(fn($p) => $p->pid(), $this->proxies),
                           [$this->reaper->pid()]);
    }

    public function lock(): array
    {
        return $this->made($this->proxies
            ? array_map(fn($p) => $p->addr(), $this->proxies)
            : array_map(fn($n) => $n->addr(), $this->nodes));
    }

    public function lockFor(int $w): array
    {
        return $this->proxies ? $this->made(array_map(fn($p) => $p->addrFor($w), $this->proxies)) : $this->lock();
    }

    private function made(array $addrs): array
    {
        return $this->n === 1 ? ['RedisLock', $addrs[0], []] : ['RedLock', $addrs, []];
    }

    public function dataAddrs(): array
    {
        return array_map(fn($n) => $n->addr(), $this->nodes);
    }

    /**
     * Without fencing, exclusion breaks when the node (or enough nodes)
     * that hold a lock forget it while its holder goes on: restarted
     * without persistence (RedisLock's only node; RedLock's quorum rebuilt
     * from a minority that was down and one node of the holder's), or
     * expiring it early by a wall clock that steps forward past the TTL or
     * runs fast (RedisLock's node; for RedLock one node of a bare quorum,
     * 3 of 5: under contention the other two may still hold a loser's keys
     * when the holder wins, as the Redlock critics say). A minority paused,
     * cut off or delayed does not forget; nor does any cut, delay, reset or
     * loss of bytes, on any number of nodes, for any clients: a key's TTL
     * starts when the server runs the command, after the client's start, so
     * it outlives the client's own validity (start + TTL, less the drift);
     * a grant read late leaves little validity, or none. A clock stepped
     * back or running slow keeps keys longer: safe, slower to free a lock
     * whose holder did not release it. A node that evicts may delete a held
     * lock's key (every lock key has a TTL: volatile-* policies may take it
     * too) and another client takes the lock.
     */
    public function mayBreak(string $fault): array
    {
        return match ($fault) {
            'server-restart-empty', 'clock-jump', 'clock-jump-many', 'clock-drift', 'eviction', 'eviction-volatile'
                => ['exclusion'],
            'nemesis' => ['exclusion', 'writes'],
            default => parent::mayBreak($fault),
        };
    }

    public function timing(string $fault): array
    {
        return match ($fault) {
            // a restart (about 100 ms a node) or a clock step must land inside a section to matter
            // ... or a held key must be there for the eviction to take it
            'server-restart-empty', 'server-restart-aof', 'clock-jump', 'clock-jump-many', 'eviction', 'eviction-volatile'
                => [2000, [300000, 800000]],
            // a clock 20% fast expires a key at 0.83 TTL: sections up to 0.9 TTL
            'clock-drift' => [1000, [300000, 900000]],
            // a grant read late leaves 0.05 to 0.2 TTL of validity; a holder
            // that believed in more (validity counted from the reply) would
            // still hold when its key expires, in a section up to 0.5 TTL
            'grant-pause' => [400, [20000, 200000]],
            // a long TTL, for the held or delayed grants; sections long enough for a restart to land in
            'nemesis' => [1000, [20000, 200000]],
            default => parent::timing($fault),
        };
    }

    protected function impairs(string $fault): bool
    {
        return in_array($fault, self::NET_FAULTS, true) || str_starts_with($fault, 'server-');
    }

    protected function nemesisFaults(): array
    {
        // the nodes persist or not once and for all: not both kinds of restart;
        // not the evicting faults: a node restarted meanwhile would refuse
        // their CONFIG SET back, and the nemesis' seeded plans stay as they were
        return array_values(array_diff(parent::nemesisFaults(), ['server-restart-aof', 'eviction', 'eviction-volatile']));
    }

    protected function own(string $fault, array $workers, int $ttl): Generator
    {
        // a window opens before the fault is put in place (a proxy may act on
        // it before it says so) and closes once it is over and its effects ran out
        $start = rl_safety_now();
        $minority = intdiv($this->n - 1, 2);    // nodes that may fail with the quorum still up
        switch ($fault) {
        case 'server-pause':                    // a minority of RedLock's nodes; RedisLock's only node
            $picked = self::pick($this->n, max(1, $minority));
            foreach ($picked as $i) $this->nodes[$i]->pause();
            yield 1500000;
            foreach ($picked as $i) $this->nodes[$i]->resume();
            return [self::window($fault, $start, $this->n === 1, [])];
        case 'server-restart-empty':
        case 'server-restart-aof':
            if ($this->n === 1) {
                $this->nodes[0]->kill();
                $this->restart(0);
            } else {
                // Redlock's hard case: a minority down while a holder takes
                // the lock on the rest, then one of those restarts and the
                // minority comes back (empty without persistence): they make
                // a quorum that a second client can win while the first
                // still holds. Down, not paused: a paused node would run the
                // holder's queued SET when resumed.
                $picked = self::pick($this->n, $minority + 1);
                $cut = array_slice($picked, 0, $minority);
                foreach ($cut as $i) $this->nodes[$i]->kill();
                yield mt_rand(300000, 600000);
                $this->nodes[$picked[$minority]]->kill();
                $this->restart($picked[$minority]);
                foreach ($cut as $i) $this->restart($i);
            }
            yield $ttl * 1000;                  // the holder that lost its key goes on within its TTL
            return [self::window($fault, $start, true, $fault === 'server-restart-empty' ? ['exclusion'] : [])];
        case 'partition-requests':              // a minority (RedisLock: its node) hears nothing, then all at once
        case 'partition-replies':               // ... runs everything, answers nothing, then all at once
            $picked = self::pick($this->n, max(1, $minority));
            $id = $this->net($picked, $fault === 'partition-requests' ? 'hold requests' : 'hold replies');
            yield 1500000;
            $this->unnet($picked, $id);
            return [self::window($fault, $start, $this->n === 1, [])];
        case 'delay':                           // a minority slowed down, both ways, for a while
            $picked = self::pick($this->n, max(1, $minority));
            $ms = mt_rand(50, 250);
            $id = $this->net($picked, "delay $ms");
            yield 1500000;
            $this->unnet($picked, $id);
            yield $ms * 1000;                   // what was on its way
            return [self::window($fault, $start, false, [])];
        case 'grant-pause':
            // one client stops between the servers' grant and its validity
            // check, as a GC pause there would: for a while every reply it
            // gets, from every node, comes close to the TTL late (the servers
            // ran its command at once), so each grant it wins is read late
            $w = mt_rand(0, count($workers) - 1);
            $ms = $this->nearTtl($ttl);
            $id = $this->net(array_keys($this->nodes), "delay replies $ms", [$w]);
            yield mt_rand(2000, 4000) * 1000;
            $this->unnet(array_keys($this->nodes), $id);
            yield $ms * 1000;                   // what was on its way
            return [self::window($fault, $start, false, [], [$w]) + ['detail' => "$ms ms"]];
        case 'late-replies':                    // a majority's replies (RedisLock: its node's) come close to the TTL late
            $picked = $this->majority();
            $ms = $this->nearTtl($ttl);
            $id = $this->net($picked, "delay replies $ms");
            yield mt_rand(1000, 2000) * 1000;
            $this->unnet($picked, $id);
            yield $ms * 1000;
            return [self::window($fault, $start, false, []) + ['detail' => "$ms ms, nodes " . implode(',', $picked)]];
        case 'cut-both':                        // some clients cut off from a majority, past their calls' timeout
        case 'cut-requests':
        case 'cut-replies':
        case 'conn-reset':                      // ... their connections reset, and every new one while it lasts
        case 'packet-drop':                     // ... their bytes lost one way or both, then their connections broken
            $clients = $this->someClients(count($workers));
            $picked = $this->majority();
            [$action, $us] = match ($fault) {
                'cut-both' => ['hold both', mt_rand(1000, 2000) * 1000],
                'cut-requests' => ['hold requests', mt_rand(1000, 2000) * 1000],
                'cut-replies' => ['hold replies', mt_rand(1000, 2000) * 1000],
                'conn-reset' => ['reset', mt_rand(200, 1000) * 1000],
                'packet-drop' => ['drop ' . ['requests', 'replies', 'both'][mt_rand(0, 2)], mt_rand(1000, 2000) * 1000],
            };
            $id = $this->net($picked, $action, $clients);
            yield $us;
            $this->unnet($picked, $id);
            return [self::window($fault, $start, true, [], $clients) + ['detail' => "$action, nodes " . implode(',', $picked)]];
        case 'clock-jump':                      // one node's wall clock steps forward by twice the TTL
        case 'clock-jump-many':                 // ... several nodes' (RedLock: 2 to 5)
            $picked = self::pick($this->n, $fault === 'clock-jump' || $this->n === 1 ? 1 : mt_rand(2, $this->n));
            foreach ($picked as $i) $this->clocks[$i]->step($ttl * 2);
            yield $ttl * 1000;                  // its holder goes on within its TTL
            return [self::window($fault, $start, false, ['exclusion']) + ['detail' => 'nodes ' . implode(',', $picked)]];
        case 'clock-back':                      // nodes' wall clocks step back by 1 to 3 TTLs
            $picked = self::pick($this->n, mt_rand(1, $this->n));
            $ms = mt_rand($ttl, 3 * $ttl);
            foreach ($picked as $i) $this->clocks[$i]->step(-$ms);
            yield ($ttl + $ms) * 1000;          // the keys set before the step live that much longer
            return [self::window($fault, $start, false, []) + ['detail' => "-$ms ms, nodes " . implode(',', $picked)]];
        case 'clock-drift':                     // nodes' clocks run fast (1.2 to 4 times the speed) or slow, 1.5 to 3 s
            $picked = self::pick($this->n, mt_rand(1, $this->n));
            $id = 'drift' . ++$this->rules;
            $rates = [];
            foreach ($picked as $i) {
                // fast: up to 4 times the speed, past the watchdog (auto_extend
                // extends every third of the TTL: a key lasting less is lost)
                $rates[$i] = mt_rand(0, 2) === 0 ? -mt_rand(50000, 200000) : mt_rand(200000, 3000000);
                $this->clocks[$i]->drift($id, $rates[$i]);
            }
            yield mt_rand(1500, 3000) * 1000;
            foreach ($picked as $i) $this->clocks[$i]->undrift($id);
            yield $ttl * 1000;                  // a key set while it drifted expires within a TTL
            // a fast clock expires keys early: RedisLock's node, or one of
            // RedLock's bare quorum; with auto_extend not while the key lasts
            // well over the third of a TTL between two extends (twice the speed)
            return [self::window($fault, $start, false, max($rates) > 0 ? ['exclusion'] : [])
                    + ['breaks_auto_extend' => max($rates) > 1000000 ? ['exclusion'] : [],
                       'detail' => implode(', ', array_map(fn($i, $r) => sprintf('node %d %+d%%', $i, intdiv($r, 10000)),
                                                           array_keys($rates), $rates))]];
        case 'eviction':                        // every node evicts under memory pressure, 1.5 to 2.5 s
        case 'eviction-volatile':
            return yield from $this->evict($fault, $start, $ttl);
        }
        throw new LogicException($fault);
    }

    /**
     * Every node (the same misconfiguration on all of them, as a deployment
     * has it) gets the fault's evicting policy and a maxmemory
     * EVICTION_ROOM above its used_memory, and a connection of its own
     * writes fillers (filler:N, random payloads) into it for 1.5 to 2.5 s,
     * so that each new one evicts what is there: some 30 fillers fit and
     * turn over many times a second, and the LRU clock counts whole
     * seconds, so a held lock key looks as old as a filler or older: a
     * candidate as they are. allkeys-lru's fillers have no TTL (an
     * application's data). volatile-lru's have one (a minute, past the
     * run): without it volatile-lru could evict nothing but the lock's own
     * keys, then refuse writes with OOM, which shows the worst case (locks
     * beside persistent data) and not whether a lock key is evicted among
     * other keys that may be; with it they compete as a cache's keys
     * would. Then maxmemory 0 and noeviction again, the fillers deleted,
     * and the holder whose key went goes on within its TTL. The window's
     * detail: the keys each node evicted (INFO evicted_keys).
     */
    private function evict(string $fault, int $start, int $ttl): Generator
    {
        $policy = self::EVICTION_POLICIES[$fault];
        $cs = array_map(fn($n) => new RlTestRedis($n->addr()), $this->nodes);
        $evicted0 = [];
        foreach ($cs as $i => $c) {
            $evicted0[$i] = (int)$c->info('stats')['evicted_keys'];
            $c->cmd('CONFIG', 'SET', 'maxmemory-policy', $policy);
            $c->cmd('CONFIG', 'SET', 'maxmemory', (int)$c->info('memory')['used_memory'] + self::EVICTION_ROOM);
        }
        $until = hrtime(true) + mt_rand(1500, 2500) * 1000000;
        $expire = $fault === 'eviction-volatile' ? ['PX', 60000] : [];
        $n = 0;
        while (hrtime(true) < $until) {
            for ($k = 0; $k < 8; $k++, $n++) {
                $payload = random_bytes(self::FILLER_BYTES);
                foreach ($cs as $c) $c->set("filler:$n", $payload, ...$expire);
            }
            yield 2000;
        }
        $evicted = [];
        foreach ($cs as $i => $c) {
            $c->cmd('CONFIG', 'SET', 'maxmemory', 0);
            $c->cmd('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
            $evicted[$i] = (int)$c->info('stats')['evicted_keys'] - $evicted0[$i];
            for ($k = 0; $k < $n; $k += 500) {
                $c->del(...array_map(fn($j) => "filler:$j", range($k, min($n, $k + 500) - 1)));
            }
            $c->close();
        }
        yield $ttl * 1000;                      // the holder whose key was evicted goes on within its TTL
        return [self::window($fault, $start, false, ['exclusion'])
                + ['detail' => "$policy, $n fillers, evicted " . implode(',', $evicted)]];
    }

    /** 0.8 to 0.95 of the TTL, for a grant read late: under the calls' timeout. */
    private function nearTtl(int $ttl): int
    {
        $hi = min(intdiv($ttl * 95, 100), self::CALL_TIMEOUT_MS - 200);
        return mt_rand(min(intdiv($ttl * 8, 10), $hi), $hi);
    }

    /** A majority of the nodes, at random (RedisLock: its node). */
    private function majority(): array
    {
        return self::pick($this->n, mt_rand(intdiv($this->n, 2) + 1, $this->n));
    }

    /** Some of $w clients: at least one, not all (when there are two or more). */
    private function someClients(int $w): array
    {
        return self::pick($w, $w < 2 ? 1 : mt_rand(1, $w - 1));
    }

    /** Puts $action on the proxies of nodes $picked (for $clients, null: all); returns the rule's id. */
    private function net(array $picked, string $action, ?array $clients = null): string
    {
        $id = 'r' . ++$this->rules;
        foreach ($picked as $i) $this->proxies[$i]->add($id, $action, $clients);
        return $id;
    }

    private function unnet(array $picked, string $id): void
    {
        foreach ($picked as $i) $this->proxies[$i]->remove($id);
    }

    /** Node $i (killed) started again, with its clock when it has one. */
    private function restart(int $i): void
    {
        isset($this->clocks[$i]) ? $this->clocks[$i]->restart($this->nodes[$i]) : $this->nodes[$i]->restart();
    }

    public function stop(): void
    {
        foreach ($this->proxies as $p) $p->stop();
        foreach ($this->nodes as $n) $n->stop();
        foreach ($this->clocks as $c) $c->stop();
        $this->reaper->stop();
    }
}
