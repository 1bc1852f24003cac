<?php
/*
 * Independent redis-servers: one for RedisLock, five for RedLock. Their own
 * faults: a server paused, killed and restarted (empty, or with
 * appendfsync always), the network to a node cut one way or delayed
 * (proxy.php in front of every node), a node's clock stepped forward
 * (clock_shift.c preloaded into one redis-server).
 */
require_once __DIR__ . '/topology.php';
require_once __DIR__ . '/proxy.php';
require_once __DIR__ . '/clock.php';

class RlSafetyNodes extends RlSafetyTopology
{
    public const OWN_FAULTS = ['server-pause', 'server-restart-empty', 'server-restart-aof',
                               'partition-requests', 'partition-replies', 'delay', 'clock-jump'];

    /** @var RlTestServer[] */
    private array $nodes = [];
    /** @var RlSafetyProxy[] one per node when the fault is on the network */
    private array $proxies = [];
    private ?RlSafetyClock $clock = null;
    private int $clockNode = -1;

    public function __construct(private int $n, private string $fault, float $deadline)
    {
        $aof = $fault === 'server-restart-aof' ? ['--appendonly', 'yes', '--appendfsync', 'always'] : [];
        if ($fault === 'clock-jump') {
            $this->clock = new RlSafetyClock();
            $this->clockNode = mt_rand(0, $n - 1);
        }
        for ($i = 0; $i < $n; $i++) {
            $this->nodes[] = $i === $this->clockNode ? $this->clock->server() : new RlTestServer($aof);
        }
        if (in_array($fault, ['partition-requests', 'partition-replies', 'delay'], true)) {
            foreach ($this->nodes as $node) {
                $this->proxies[] = new RlSafetyProxy($node->addr(), $deadline + 30.0);
            }
        }
    }

    public function lock(): array
    {
        $addrs = $this->proxies
            ? array_map(fn($p) => $p->addr(), $this->proxies)
            : array_map(fn($n) => $n->addr(), $this->nodes);
        return $this->n === 1 ? ['RedisLock', $addrs[0], []] : ['RedLock', $addrs, []];
    }

    public function dataAddrs(): array
    {
        return array_map(fn($n) => $n->addr(), $this->nodes);
    }


    /**
     * Without fencing the lock is held twice when the node (or enough
     * nodes) that hold it forget it while its holder goes on: RedisLock's
     * only node paused past the TTL, restarted empty, or its clock stepped
     * past the TTL; RedLock's quorum rebuilt by a restart without
     * persistence, or by one node's clock step when the holder has a bare
     * quorum (3 of 5: under contention the other two may still hold a
     * loser's keys when it wins), as the Redlock critics say. A minority
     * paused, cut off or delayed does not forget; nor does a cut or delay
     * on RedisLock's node make it: the key's TTL starts when the server
     * runs the command, after the client's start, so it outlives the
     * client's own validity.
     */
    public function overlapsPredicted(string $fault): bool
    {
        return in_array($fault, ['holder-pause', 'server-restart-empty', 'clock-jump'], true)
            || ($this->n === 1 && $fault === 'server-pause');
    }

    public function timing(string $fault): array
    {
        // a restart (about 100 ms a node) or a clock step must land inside a section to matter
        return str_starts_with($fault, 'server-restart') || $fault === 'clock-jump'
            ? [2000, [300000, 800000]] : parent::timing($fault);
    }

    protected function injectOwn(string $fault, int $ttl): bool
    {
        $minority = intdiv($this->n - 1, 2);    // nodes that may fail with the quorum still up
        switch ($fault) {
        case 'server-pause':                    // a minority of RedLock's nodes; RedisLock's only node
            $picked = self::pick($this->n, max(1, $minority));
            foreach ($picked as $i) $this->nodes[$i]->pause();
            usleep(1500000);
            foreach ($picked as $i) $this->nodes[$i]->resume();
            return $this->n === 1;
        case 'server-restart-empty':
        case 'server-restart-aof':
            if ($this->n === 1) {
                $this->nodes[0]->kill();
                $this->nodes[0]->restart();
                return true;
            }
            // Redlock's hard case: a minority down while a holder takes the
            // lock on the rest, then one of those restarts and the minority
            // comes back (empty without persistence): they make a quorum
            // that a second client can win while the first still holds.
            // Down, not paused: a paused node would run the holder's queued
            // SET when resumed.
            $picked = self::pick($this->n, $minority + 1);
            $cut = array_slice($picked, 0, $minority);
            foreach ($cut as $i) $this->nodes[$i]->kill();
            usleep(mt_rand(300000, 600000));
            $this->nodes[$picked[$minority]]->kill();
            $this->nodes[$picked[$minority]]->restart();
            foreach ($cut as $i) $this->nodes[$i]->restart();
            return true;
        case 'partition-requests':              // a minority (RedisLock: its node) hears nothing, then all at once
        case 'partition-replies':               // ... runs everything, answers nothing, then all at once
            $picked = self::pick($this->n, max(1, $minority));
            $state = $fault === 'partition-requests' ? 'hold requests' : 'hold replies';
            foreach ($picked as $i) $this->proxies[$i]->set($state);
            usleep(1500000);
            foreach ($picked as $i) $this->proxies[$i]->set('pass');
            return $this->n === 1;
        case 'delay':                           // a minority slowed down, both ways, for a while
            $picked = self::pick($this->n, max(1, $minority));
            foreach ($picked as $i) $this->proxies[$i]->set('delay ' . mt_rand(50, 250));
            usleep(1500000);
            foreach ($picked as $i) $this->proxies[$i]->set('pass');
            return false;
        case 'clock-jump':                      // one node's wall clock steps forward by twice the TTL
            $this->clock->step($ttl * 2);
            return false;
        }
        throw new LogicException($fault);
    }

    public function stop(): void
    {
        foreach ($this->proxies as $p) $p->stop();
        foreach ($this->nodes as $n) $n->stop();
        $this->clock?->stop();
    }
}
