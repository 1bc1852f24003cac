--TEST--
Sentinel: a sentinel that names a replica as the master (one monitoring the wrong node) is not believed: ROLE says slave, the call throws naming the sentinel and the node, and nothing is written to the replica, even a writable one (a lock there would not be the master's)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); require_once __DIR__ . '/../sentinel.inc'; rl_skip_unless_sentinel(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';

$master = new RlTestServer();
// writable: a lock written there would be granted, and lost to the master's data
$replica = new RlTestServer(['--replicaof', '127.0.0.1', (string)$master->port(), '--replica-read-only', 'no']);
$r = $replica->client();
if (!rl_wait_until(fn() => ($r->info('replication')['master_link_status'] ?? '') === 'up', 30.0)) {
    throw new RuntimeException('the replica did not sync');
}
// one sentinel monitoring the replica as the master of "s128" (a quorum of 2
// that it cannot reach alone: no failover, it goes on naming the replica)
$s = new RlTestSentinel('s128', $replica->port(), []);
$named = $s->client(null)->cmd('SENTINEL', 'get-master-addr-by-name', 's128');
echo "the sentinel names the replica: ", var_export($named === ['127.0.0.1', (string)$replica->port()], true), "\n";

$lock = new RedisLock(['sentinels' => [$s->addr()], 'service' => 's128']);
foreach (['first call', 'again'] as $what) {
    try {
        $t = $lock->lock('r128', 10000);
        echo "$what: ", $t === null ? 'null' : 'locked', "\n";
    } catch (RedisLockException $e) {
        echo "$what: ", get_class($e), ": ", strtr($e->getMessage(), [$s->addr() => 'SENTINEL', $replica->addr() => 'REPLICA']), "\n";
    }
}
echo "written to the replica: ", $r->exists('lock:r128'), "\n";
// the master's lock is free for a client that goes to the master
$direct = new RedisLock($master->addr());
echo "the master's lock free: ", var_export(is_string($direct->lock('r128', 10000)), true), "\n";
?>
--EXPECT--
the sentinel names the replica: true
first call: RedisLockConnectionException: Redis node sentinel service "s128": sentinel SENTINEL names REPLICA as the master of "s128", but ROLE says slave, not master
again: RedisLockConnectionException: Redis node sentinel service "s128": sentinel SENTINEL names REPLICA as the master of "s128", but ROLE says slave, not master
written to the replica: 0
the master's lock free: true
