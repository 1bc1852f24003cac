<?php
/*
 * RedisLock over a Redis Cluster (3 masters with a replica each:
 * tests/cluster.inc). The lock's keys (lock:safety, and its queue,
 * reservation and wake streams, tagged into its slot) live on the master of
 * one slot; its own faults act on that slot:
 *   cluster-failover  CLUSTER FAILOVER (graceful) on that master's replica:
 *                     the replica catches up with the master, which holds
 *                     its clients meanwhile, before they swap roles;
 *   slot-migration    the slot moved to another master: left half-way a
 *                     moment (MIGRATING/IMPORTING, keys moved: ASK, and
 *                     TRYAGAIN for scripts whose keys are split), then
 *                     finished (MOVED); the next one moves it on again.
 *   atomic-slot-migration  the slot moved by the server's atomic slot
 *                     migration (Redis 8.4+, Valkey 9.0+: a server without
 *                     it refuses the row): the target copies the slot, the
 *                     source holds its writes while the target takes it
 *                     over (the pause, held open for 0.1 to 0.5 s by
 *                     stopping the target), then the held calls get MOVED.
 */
require_once __DIR__ . '/topology.php';
require_once __DIR__ . '/../cluster.inc';

class RlSafetyCluster extends RlSafetyTopology
{
    public const OWN_FAULTS = ['cluster-failover', 'slot-migration', 'atomic-slot-migration'];
    private const KEY = 'lock:safety';

    private RlTestCluster $c;
    /** @var array<string, float> replica => when it last won a failover */
    private array $elected = [];

    public function __construct(private string $fault, float $deadline)
    {
        // its target is stopped a moment: not to be failed over meanwhile
        $atomic = $fault === 'atomic-slot-migration';
        $this->c = new RlTestCluster(3, 1, $atomic ? 10000 : RlTestCluster::NODE_TIMEOUT_MS);
        if ($fault === 'atomic-slot-migration' && rl_atomic_migration_form($this->c->seeds()[0]) === null) {
            $this->c->stop();
            throw new RuntimeException('fault atomic-slot-migration: the server has no atomic slot migration '
                . '(Redis 8.4+, Valkey 9.0+; REDISLOCK_TEST_REDIS_SERVER names the binary)');
        }
    }

    /*
     * Not in the nemesis: an atomic migration of the slot beside a classic
     * one or a failover of its master is refused or cancelled by the server
     * (one migration of a slot at a time), which says nothing of the locks.
     */
    protected function nemesisFaults(): array
    {
        return array_values(array_diff(parent::nemesisFaults(), ['atomic-slot-migration']));
    }

    public function lock(): array
    {
        // a call held by an atomic migration's pause waits it out within its
        // timeout: above the pause held here (0.1 to 0.5 s, and the turns
        // that catch it, longer on a loaded machine), as docs/topologies.md
        // tells users to set theirs above the server's
        $options = $this->fault === 'atomic-slot-migration' ? ['timeout' => 3.0] : [];
        return ['RedisLock', ['cluster' => $this->c->seeds()], $options];
    }

    public function dataAddrs(): array
    {
        return $this->c->masters();
    }

    /*
     * No own fault loses a write (mayBreak: nothing): a graceful failover
     * swaps roles only once the replica has everything, a migration moves
     * every key of the slot (MIGRATE is atomic per key) while clients follow
     * ASK and MOVED, and an atomic one hands the slot over only once the
     * target has every write (the source holds the slot's writes meanwhile).
     */

    public function timing(string $fault): array
    {
        // a failover or a migration lasts a few hundred ms: sections of up to
        // 0.3 s are caught in one, their unlock and the watchdog's extends
        // redirected; a TTL of 2 s leaves room for the redirections
        return in_array($fault, self::OWN_FAULTS, true) ? [2000, [50000, 300000]] : parent::timing($fault);
    }

    protected function own(string $fault, array $workers, int $ttl): Generator
    {
        $start = rl_safety_now();
        $slot = $this->c->slotOf(self::KEY);
        $from = $this->c->masterForSlot($slot);
        if ($fault === 'cluster-failover') {
            // a replica keeps the votes of its last election for 4 node
            // timeouts: asked again sooner, it "wins" with that old epoch,
            // loses to its master's newer one, and the failover times out.
            // Not yet, then (no sleep here: it would widen the fault's window)
            $replica = $this->c->replicaOf($from);
            if (microtime(true) < ($this->elected[$replica] ?? 0) + RlTestCluster::NODE_TIMEOUT_MS * 4 / 1000 + 0.5) {
                return [];
            }
            $this->elected[$this->c->failover($from)] = microtime(true);   // waits until every node agrees
            // no call may fail: while the nodes disagree on the slot's
            // master (ms), a call sent to and fro by MOVED pauses and looks
            // again within its timeout; settled: every node agrees
            // (history.php: no call begun after this may fail)
            return [['settled' => true] + self::window($fault, $start, false, [])];
        }
        $others = array_values(array_diff($this->c->masters(), [$from]));
        $to = $others[mt_rand(0, count($others) - 1)];
        if ($fault === 'atomic-slot-migration') {
            // calls made while the source holds the slot's writes wait, then
            // follow MOVED, within their timeout (3 s, lock()): the pause is
            // held open below that. The pause may end unseen (then the slot
            // moved without a held call); either way no write is lost
            $m = $this->c->atomicMigrationStart($slot, $from, $to);
            try {
                if ($this->c->atomicMigrationHoldPause($m)) {
                    yield mt_rand(100000, 500000);
                }
            } finally {
                $this->c->atomicMigrationFinish($m);   // until every node agrees: settled
            }
            return [['settled' => true, 'slot_moves' => 1] + self::window($fault, $start, false, [])];
        }
        $this->c->migrateSlot($slot, $from, $to, false);
        // under the calls' timeout (1 s): a waiter queueing, which waits a
        // migration out, does not give up (code 16)
        yield mt_rand(100000, 500000);
        $this->c->migrateSlot($slot, $from, $to, true);   // until every node agrees: settled
        return [['settled' => true, 'slot_moves' => 1] + self::window($fault, $start, false, [])];
    }

    public function stop(): void
    {
        $this->c->stop();
    }
}
