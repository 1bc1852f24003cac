--TEST--
min_replicas holds for every way of taking a lock, not only lock(): lockMany() (at once and waited), lockShared(), acquirePermit(), synchronized() and once() on a master whose replica never acknowledges fail with code 13 and leave no key; with the replica attached each returns with its keys already on the replica
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$master = new RlTestServer();
$replica = new RlTestServer(['--replicaof', '127.0.0.1', (string)$master->port()]);
$m = $master->client();
$rep = $replica->client();
$synced = rl_wait_until(fn() => str_contains($m->cmd('INFO', 'replication'), 'connected_slaves:1')
    && str_contains($rep->cmd('INFO', 'replication'), 'master_link_status:up'), 20, 0.05);
echo "replica attached: ", var_export($synced, true), "\n";

$takes = [
    'lockMany' => fn($l) => $l->lockMany(['k135-a', 'k135-b'], 30000),
    'lockMany, waited' => fn($l) => $l->lockMany(['k135-a', 'k135-b'], 30000, 0.5),
    'lockShared' => fn($l) => $l->lockShared('k135-a', 30000),
    'acquirePermit' => fn($l) => $l->acquirePermit('k135-a', 2, 30000),
    'synchronized' => fn($l) => $l->synchronized('k135-a', fn() => 'ran', 30000, 0.5),
    'once' => fn($l) => $l->once('k135-a', fn() => 'built', 30000, 0.5),
];
/** The lock keys the master has (a once() value key is not a lock). */
function lock_keys(RlTestRedis $c): array
{
    $k = $c->keys('lock:*');
    sort($k);
    return $k;
}

echo "-- replica paused: no acknowledgement\n";
$lock = new RedisLock($master->addr(), ['min_replicas' => 1, 'replica_timeout' => 0.2]);
$replica->pause();
foreach ($takes as $what => $take) {
    try {
        $r = $take($lock);
        echo "$what: returned ", var_export(is_string($r) ? 'a token' : $r, true), "\n";
    } catch (RedisLockException $e) {
        echo "$what: code ", $e->getCode(), str_contains($e->getMessage(), 'acknowledged by 0 of 1 required replicas') ? ', says 0 of 1' : ': ' . $e->getMessage(), "\n";
    }
    echo "  lock keys left on the master: ", json_encode(lock_keys($m)), "\n";
    foreach (lock_keys($m) as $k) {
        $m->cmd('DEL', $k);
    }
}
$replica->resume();

echo "-- replica attached\n";
// a busy machine's replica may take long: only a failure waits the timeout out
$lock = new RedisLock($master->addr(), ['min_replicas' => 1, 'replica_timeout' => 10.0]);
$t = $lock->lockMany(['k135-a', 'k135-b'], 30000);
echo "lockMany: on the replica when it returned: ", var_export($rep->get('lock:k135-a') === $t && $rep->get('lock:k135-b') === $t, true), "\n";
var_dump($lock->unlockMany(['k135-a', 'k135-b'], $t));
$t = $lock->lockShared('k135-a', 30000);
echo "lockShared: ", var_export(is_string($t), true), ", keys on the replica: ", json_encode(lock_keys($rep) !== []), "\n";
var_dump($lock->unlock('k135-a', $t));
$t = $lock->acquirePermit('k135-a', 2, 30000);
echo "acquirePermit: ", var_export(is_string($t), true), ", keys on the replica: ", json_encode(lock_keys($rep) !== []), "\n";
var_dump($lock->unlock('k135-a', $t));
echo "synchronized: ", $lock->synchronized('k135-a', fn() => 'ran', 30000, 0.5), "\n";
?>
--EXPECT--
replica attached: true
-- replica paused: no acknowledgement
lockMany: code 13, says 0 of 1
  lock keys left on the master: []
lockMany, waited: code 13, says 0 of 1
  lock keys left on the master: []
lockShared: code 13, says 0 of 1
  lock keys left on the master: []
acquirePermit: code 13, says 0 of 1
  lock keys left on the master: []
synchronized: code 13, says 0 of 1
  lock keys left on the master: []
once: code 13, says 0 of 1
  lock keys left on the master: []
-- replica attached
lockMany: on the replica when it returned: true
bool(true)
lockShared: true, keys on the replica: true
bool(true)
acquirePermit: true, keys on the replica: true
bool(true)
synchronized: ran
