--TEST--
min_replicas: WAIT rides with the command; with a replica attached the key is on the replica when lock() returns; with the replica paused or absent, RedisLockException code 13 says how many of how many acknowledged, and no key is left
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
$port = (string)$master->port();

function show(string $what, callable $f): void
{
    global $port;
    try {
        $res = $f();
        echo "$what: ", var_export(is_string($res) ? 'token' : $res, true), "\n";
    } catch (RedisLockException $e) {
        printf("%s: %s code %d: %s\n", $what, get_class($e), $e->getCode(), str_replace($port, 'PORT', $e->getMessage()));
    }
}

// Where a replica must acknowledge, its timeout is long: only a failure
// waits it out, and a busy machine's replica may take longer than 500 ms
// (a CI run had it fail so). Where none can, it is short.
$lock = new RedisLock($master->addr(), ['min_replicas' => 1, 'replica_timeout' => 10.0]);
$t = $lock->lock('m130', 30000);
// WAIT returned before lock() did: the replica has the key already, no polling
echo "on the replica when lock() returned: ", var_export($rep->get('lock:m130') === $t, true), "\n";
var_dump($lock->extend('m130', $t, 60000));
echo "replica TTL extended: ", var_export($rep->pttl('lock:m130') > 30000, true), "\n";
// script cache emptied: EVALSHA fails with a WAIT already behind it on the wire;
// that WAIT's reply is dropped, and the EVAL + WAIT that follow answer in step
$m->scriptFlush();
var_dump($lock->extend('m130', $t, 45000));
echo "extended after SCRIPT FLUSH: ", var_export($m->pttl('lock:m130') > 40000 && $rep->pttl('lock:m130') > 40000, true), "\n";
$t2 = $lock->lock('m130-b', 30000);
echo "next lock in step: ", var_export(is_string($t2) && $rep->get('lock:m130-b') === $t2, true), "\n";
var_dump($lock->unlock('m130-b', $t2));
var_dump($lock->unlock('m130', $t));

echo "-- replica paused\n";
$short = new RedisLock($master->addr(), ['min_replicas' => 1, 'replica_timeout' => 0.5]);
$held = $lock->lock('m130-held', 30000);
$replica->pause();
show('lock', fn() => $short->lock('m130', 30000));
echo "left on the master: ", $m->exists('lock:m130'), "\n";
show('extend', fn() => $short->extend('m130-held', $held, 30000));
echo "extended lock released on the master: ", var_export($m->exists('lock:m130-held') === 0, true), "\n";
var_dump($lock->releaseLock('m130-held'));
$replica->resume();

echo "-- two required, one replica\n";
$two = new RedisLock($master->addr(), ['min_replicas' => 2, 'replica_timeout' => 3.0]); // the one replica's ack is in the count
show('lock', fn() => $two->lock('m130', 30000));
echo "left on the master: ", $m->exists('lock:m130'), "\n";

echo "-- no replica at all\n";
$alone = new RlTestServer();
$solo = new RedisLock($alone->addr(), ['min_replicas' => 1, 'replica_timeout' => 0.1]);
$port = (string)$alone->port();
show('lock', fn() => $solo->lock('m130', 30000));
echo "left: ", $alone->client()->exists('lock:m130'), "\n";
// held by another: a plain no, not an acknowledgement error
$alone->client()->set('lock:m130-other', 'someone', 'PX', 30000);
show('lock held by another', fn() => $solo->lock('m130-other', 30000));

echo "-- RedLock: two of three nodes have no replica\n";
$red = new RedLock([$master->addr(), $alone->addr(), rl_test_server(0)], 0, 1, ['min_replicas' => 1, 'replica_timeout' => 0.1]);
try {
    $red->lock('m130-red', 30000);
    echo "no exception\n";
} catch (RedisLockException $e) {
    echo get_class($e), " code ", $e->getCode(), ": ", str_replace([$master->addr(), $alone->addr(), rl_test_server(0)], 'NODE', $e->getMessage()), "\n";
}
echo "left on the nodes: ", $m->exists('lock:m130-red') + $alone->client()->exists('lock:m130-red')
    + (new RlTestRedis(rl_test_server(0)))->exists('lock:m130-red'), "\n";

echo "-- bad options\n";
foreach ([['min_replicas' => -1], ['min_replicas' => '1'], ['replica_timeout' => 0], ['replica_timeout' => 0.0001]] as $o) {
    try {
        new RedisLock($master->addr(), $o);
        echo "accepted\n";
    } catch (ValueError | TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
replica attached: true
on the replica when lock() returned: true
bool(true)
replica TTL extended: true
bool(true)
extended after SCRIPT FLUSH: true
next lock in step: true
bool(true)
bool(true)
-- replica paused
lock: RedisLockException code 13: Redis node 127.0.0.1:PORT: acknowledged by 0 of 1 required replicas within 500 ms
left on the master: 0
extend: RedisLockException code 13: Redis node 127.0.0.1:PORT: acknowledged by 0 of 1 required replicas within 500 ms
extended lock released on the master: true
bool(false)
-- two required, one replica
lock: RedisLockException code 13: Redis node 127.0.0.1:PORT: acknowledged by 1 of 2 required replicas within 3000 ms
left on the master: 0
-- no replica at all
lock: RedisLockException code 13: Redis node 127.0.0.1:PORT: acknowledged by 0 of 1 required replicas within 100 ms
left: 0
lock held by another: NULL
-- RedLock: two of three nodes have no replica
RedisLockException code 13: 2 of 3 Redis nodes failed (quorum is 2): NODE: acknowledged by 0 of 1 required replicas within 100 ms; NODE: acknowledged by 0 of 1 required replicas within 100 ms
left on the nodes: 0
-- bad options
ValueError: RedisLock::__construct(): Argument #2 ($options) option "min_replicas" must be between 0 and 1000
TypeError: RedisLock::__construct(): Argument #2 ($options) option "min_replicas" must be of type int, string given
ValueError: RedisLock::__construct(): Argument #2 ($options) option "replica_timeout" must be greater than 0 and at most 86400 seconds
ValueError: RedisLock::__construct(): Argument #2 ($options) option "replica_timeout" must be at least 0.001 seconds
