--TEST--
auto_extend with min_replicas: the watchdog's extends wait for the replicas too; with the replica stopped none is acknowledged, so the holder's validity runs out (getValidity() 0, isHeld() false) instead of being prolonged on the master alone, and with the replica back a new lock is kept past its TTL
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

// the replica is given 2 s to answer: long for a busy machine (0.2 s was
// too short for the first lock's WAIT in a CI beside a CPU load), and still
// longer than the 1 s validity once it is stopped: the extends then come
// back unacknowledged after the validity has run out
$lock = new RedisLock($master->addr(), ['auto_extend' => true, 'min_replicas' => 1, 'replica_timeout' => 2.0]);
$t = $lock->lock('w706', 1000);
echo "locked: ", var_export(is_string($t), true), "\n";
$replica->pause();
// the watchdog extends at a third of the TTL; without acknowledgements the
// validity of the grant (1 s) runs out; 30 s is only a bound for a stuck run
$ran_out = rl_wait_until(fn() => $lock->getValidity('w706') === 0, 30, 0.05);
echo "validity ran out with the replica stopped: ", var_export($ran_out, true), "\n";
echo "isHeld: ", var_export($lock->isHeld('w706'), true), "\n";
$replica->resume();
$lock->releaseLock('w706');

$waits = fn() => preg_match('/cmdstat_wait:calls=(\d+)/', $m->cmd('INFO', 'commandstats'), $g) ? (int)$g[1] : 0;
$before = $waits();
$kept = new RedisLock($master->addr(), ['auto_extend' => true, 'min_replicas' => 1, 'replica_timeout' => 10.0]);
$t = $kept->lock('w706-b', 1000);
// past the TTL by counting the WAITs (the lock's and three extends'), not by sleeping a set time
$extended = rl_wait_until(fn() => $waits() >= $before + 4, 30, 0.05) && (int)$m->cmd('PTTL', 'lock:w706-b') > 0;
echo "kept by acknowledged extends: ", var_export($extended && $kept->isHeld('w706-b') && $rep->get('lock:w706-b') === $t, true), "\n";
var_dump($kept->unlock('w706-b', $t));
?>
--EXPECT--
replica attached: true
locked: true
validity ran out with the replica stopped: true
isHeld: false
kept by acknowledged extends: true
bool(true)
