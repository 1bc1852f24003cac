<?php
/*
 * RedisLock over a Sentinel group (a master, 2 replicas, 3 sentinels:
 * tests/sentinel.inc), with or without min_replicas. Its own faults lose
 * what the replicas did not get, as a real failover does: the replicas'
 * links to the master are cut first (a wrong masterauth, so that they
 * cannot reconnect and catch up by PSYNC, then CLIENT KILL TYPE replica on
 * the master: the replica's own CLIENT KILL TYPE master misses a link still
 * in its first sync), the master goes on granting locks alone, then
 *   sentinel-failover     SENTINEL FAILOVER promotes a replica; the old
 *                         master is made its replica at once (the sentinels
 *                         would after about 10 s) and drops what it granted
 *                         alone;
 *   sentinel-master-kill  SIGKILL of the master; the sentinels elect a
 *                         replica; the old master comes back, empty, as its
 *                         replica;
 *   sentinel-stale        one sentinel names a replica as the master (as one
 *                         cut off through a failover names the old master,
 *                         now a replica, until the others' hellos reach it);
 *                         that replica takes writes meanwhile (not a
 *                         failover: nothing is lost; stale()).
 */
require_once __DIR__ . '/topology.php';
require_once __DIR__ . '/../sentinel.inc';

class RlSafetySentinel extends RlSafetyTopology
{
    public const OWN_FAULTS = ['sentinel-failover', 'sentinel-master-kill', 'sentinel-stale'];
    private const SERVICE = 'safety';
    private const KEY = 'lock:safety';

    private RlTestSentinelGroup $g;

    public function __construct(private bool $minReplicas, private string $fault, float $deadline)
    {
        $this->g = new RlTestSentinelGroup(self::SERVICE);
        foreach ($this->g->nodes as $n) {
            $this->tune($n->addr());
        }
        // sentinel.inc's 1 s: a new master slow to answer on a loaded 2-core
        // box was failed over again; this run's faults are the injected ones
        foreach ($this->g->sentinels as $s) {
            $s->client(null)->cmd('SENTINEL', 'SET', self::SERVICE, 'down-after-milliseconds', '3000');
        }
        // the sentinels list the replicas before their first sync is over:
        // until then WAIT gets no ack, and a cut would not stop that sync
        $this->settle();
    }

    /** A full resync (the old master's, after it granted alone) without the 5 s wait for more replicas. */
    private function tune(string $addr): void
    {
        $this->g->client($addr)->cmd('CONFIG', 'SET', 'repl-diskless-sync-delay', '0');
    }

    public function lock(): array
    {
        // replica_timeout: a loaded 2-core box can take tens of ms to
        // answer a WAIT on loopback; 0.25 s keeps spurious code 13s out
        // of the rows while a cut replica still costs a call little
        return ['RedisLock', ['sentinels' => $this->g->sentinelAddrs(), 'service' => self::SERVICE],
                $this->minReplicas ? ['min_replicas' => 1, 'replica_timeout' => 0.25] : []];
    }

    /**
     * sentinel-stale: worker w lists the sentinels from the w-th on (as
     * clients configured apart do): the first listed tends to answer first,
     * so some workers hear the stale one and others not.
     */
    public function lockFor(int $w): array
    {
        $lock = $this->lock();
        if ($this->fault === 'sentinel-stale') {
            $all = $lock[1]['sentinels'];
            $k = $w % count($all);
            $lock[1]['sentinels'] = array_merge(array_slice($all, $k), array_slice($all, 0, $k));
        }
        return $lock;
    }

    public function dataAddrs(): array
    {
        return array_values(array_map(fn($n) => $n->addr(), array_filter($this->g->nodes, fn($n) => $n->isRunning())));
    }

    /**
     * A failover loses the locks the master granted after its replicas
     * stopped hearing it; the holder of one goes on while another client
     * takes the lock on the new master. With min_replicas such a grant is
     * refused (WAIT: 0 of 1) and released, so nothing is lost: replicas on
     * loopback do not lag, so the one promoted had every acknowledged grant.
     */
    public function mayBreak(string $fault): array
    {
        if ($fault === 'sentinel-stale') {
            return [];   // a client checks with ROLE the master a sentinel names
        }
        return in_array($fault, self::OWN_FAULTS, true) ? ($this->minReplicas ? [] : ['exclusion']) : parent::mayBreak($fault);
    }

    public function timing(string $fault): array
    {
        // The cut lasts until the replicas' copy of the lock has expired
        // (up to a TTL), then SENTINEL FAILOVER about 1 s (the sentinels'
        // INFO period), a kill about 4 s (down-after, election), settling
        // 1-2 s: a short TTL makes more of them per run. Sections up to
        // 0.6 s, well under the TTL with room for slow calls: a lock expires
        // under a holder only when a failover lost it.
        return in_array($fault, self::OWN_FAULTS, true) ? [1500, [200000, 600000]] : parent::timing($fault);
    }

    protected function own(string $fault, array $workers, int $ttl): Generator
    {
        if ($fault === 'sentinel-stale') {
            return yield from $this->stale($ttl);
        }
        $start = rl_safety_now();
        $old = $this->g->masterAddr();
        $replicas = array_values(array_diff($this->dataAddrs(), [$old]));
        foreach ($replicas as $r) {  // the master has no password: their AUTH fails from now on
            $this->g->client($r)->cmd('CONFIG', 'SET', 'masterauth', 'cut-off');
        }
        $this->g->client($old)->cmd('CLIENT', 'KILL', 'TYPE', 'replica');
        // a lock lost needs a replica without the lock: wait until the copy
        // they had expires, then let the master grant alone a little longer
        rl_wait_until(function () use ($replicas) {
            foreach ($replicas as $r) {
                if ($this->g->client($r)->exists(self::KEY)) {
                    return false;
                }
            }
            return true;
        }, $ttl / 1000 + 1.0, 0.02);
        yield mt_rand(100000, 300000);
        if ($fault === 'sentinel-failover') {
            $this->sentinelFailover();
            $new = $this->g->waitNewMaster($old, 20.0);
        } else {
            $this->g->node($old)->kill();
            $new = $this->g->waitNewMaster($old, 30.0);
        }
        foreach ($replicas as $r) {
            $this->g->client($r)->cmd('CONFIG', 'SET', 'masterauth', '');
        }
        if ($fault === 'sentinel-master-kill') {
            $this->g->node($old)->restart();  // empty; a master, or a replica of a node that may be one no more
            $this->tune($old);
        }
        $this->g->client($old)->cmd('REPLICAOF', ...explode(':', $new));
        $this->settle();
        yield $ttl * 1000;  // the holder of a lost lock goes on within its TTL
        // settled: the group agrees on its new master (history.php: no call begun after this may fail)
        return [['settled' => true] + self::window($fault, $start, true, $this->mayBreak($fault))];
    }

    /**
     * sentinel-stale: a sentinel other than the first (masterAddr() asks
     * that one) is made to monitor a replica as the master (SENTINEL REMOVE,
     * MONITOR) while the other two publish no hellos (SENTINEL DEBUG
     * publish-period) that would set it right; the replica is made writable
     * (replica-read-only no): a client that believed that sentinel would be
     * granted locks there, beside the master's holders. The master holds
     * its writers past their timeout (CLIENT PAUSE WRITE), twice, so that
     * they ask the sentinels again. A client
     * that checks the named node's ROLE fails those calls (the window lets
     * calls fail), and is granted nothing there; then all is put back.
     */
    private function stale(int $ttl): Generator
    {
        $start = rl_safety_now();
        $master = $this->g->masterAddr();
        $replicas = array_values(array_diff($this->dataAddrs(), [$master]));
        $replica = $replicas[mt_rand(0, count($replicas) - 1)];
        $liar = $this->g->sentinels[mt_rand(1, 2)];
        $others = array_filter($this->g->sentinels, fn($x) => $x !== $liar);
        foreach ($others as $o) {
            $o->client(null)->cmd('SENTINEL', 'DEBUG', 'publish-period', '3600000');
        }
        $this->g->client($replica)->cmd('CONFIG', 'SET', 'replica-read-only', 'no');
        $this->monitor($liar, $replica);
        for ($i = 2; $i > 0; $i--) {
            // past the calls' timeout (1 s): a timeout is a failover's sign
            $this->g->client($master)->cmd('CLIENT', 'PAUSE', '1300', 'WRITE');
            yield mt_rand(1500000, 1800000);
        }
        yield mt_rand(2000000, 3000000);   // the master's writers and any the replica has, side by side
        $this->monitor($liar, $master);
        $this->g->client($replica)->cmd('CONFIG', 'SET', 'replica-read-only', 'yes');
        foreach ($others as $o) {
            $o->client(null)->cmd('SENTINEL', 'DEBUG', 'publish-period', '2000');
        }
        $this->settle();
        // a release that timed out leaves its holder's object believing it
        // holds the lock (another kind of lock() on it fails) until its TTL
        yield $ttl * 1000;
        return [['settled' => true] + self::window('sentinel-stale', $start, true, [])];
    }

    /** Sentinel $s monitors $addr as the service's master, as tests/sentinel.inc and the constructor set it. */
    private function monitor(RlTestSentinel $s, string $addr): void
    {
        $c = $s->client(null);
        $c->cmd('SENTINEL', 'REMOVE', self::SERVICE);
        $c->cmd('SENTINEL', 'MONITOR', self::SERVICE, ...[...explode(':', $addr), '2']);
        $c->cmd('SENTINEL', 'SET', self::SERVICE, 'down-after-milliseconds', '3000', 'failover-timeout', '5000',
                'parallel-syncs', '1');
    }

    /** SENTINEL FAILOVER; a sentinel that has not seen the replicas since the last one says NOGOODSLAVE. */
    private function sentinelFailover(): void
    {
        $err = null;
        $ok = rl_wait_until(function () use (&$err) {
            try {
                $this->g->sentinels[mt_rand(0, 2)]->client(null)->cmd('SENTINEL', 'FAILOVER', self::SERVICE);
                return true;
            } catch (RlTestRedisError $e) {
                $err = $e->getMessage();
                return false;
            }
        }, 10.0, 0.1);
        $ok || throw new RuntimeException("SENTINEL FAILOVER: $err");
    }

    /**
     * Before the next injection, and the run's end: every sentinel names
     * one master, has ended its failover and sees both replicas, and the
     * master has them in sync (else WAIT gets no ack, and the next SENTINEL
     * FAILOVER finds no replica). A node other than that master that still
     * says master (a failover's old master), or follows another, is made
     * its replica at once.
     */
    private function settle(): void
    {
        $why = '';
        $ok = rl_wait_until(function () use (&$why) {
            try {
                $master = $this->g->masterAddr();
                foreach ($this->g->sentinels as $s) {
                    $m = $this->g->info($s);
                    if ("{$m['ip']}:{$m['port']}" !== $master || $m['flags'] !== 'master'
                        || (int)$m['num-slaves'] !== 2 || (int)$m['num-other-sentinels'] !== 2) {
                        return !($why = "sentinel {$s->addr()}: {$m['ip']}:{$m['port']} {$m['flags']}, {$m['num-slaves']} replicas");
                    }
                    foreach ($s->client(null)->cmd('SENTINEL', 'REPLICAS', self::SERVICE) as $flat) {
                        $flags = $flat[array_search('flags', $flat, true) + 1];
                        if ($flags !== 'slave') {
                            return !($why = "sentinel {$s->addr()}: a replica flagged $flags");
                        }
                    }
                }
                foreach (array_diff($this->dataAddrs(), [$master]) as $a) {
                    $role = $this->g->client($a)->cmd('ROLE');
                    if ($role[0] === 'master' || "{$role[1]}:{$role[2]}" !== $master) {
                        $this->g->client($a)->cmd('REPLICAOF', ...explode(':', $master));
                    }
                }
                if (substr_count($this->g->client($master)->cmd('INFO', 'replication'), 'state=online') < 2) {
                    return !($why = "$master: replicas not online");
                }
                return true;
            } catch (Throwable $e) {
                return !($why = $e->getMessage());
            }
        }, rl_under_valgrind() ? 90.0 : 30.0, 0.05);
        $ok || throw new RuntimeException("sentinel group did not settle: $why\n" . $this->g->sentinels[0]->log());
    }

    public function stop(): void
    {
        $this->g->stopSentinels();
        foreach ($this->g->nodes as $n) {
            $n->stop();
        }
    }
}
