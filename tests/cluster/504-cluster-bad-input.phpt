--TEST--
Cluster: bad forms are a ValueError naming the key; seeds that are not a cluster, or that all fail, are a RedisLockConnectionException (code 15) naming each seed and why; a cluster with a slot nobody serves is refused clearly
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$addrs = ['127.0.0.1:7000', '127.0.0.1:0'];   // shown as ADDR (no regex: PCRE's JIT is noise under valgrind)
function show(callable $f): void
{
    global $addrs;
    try {
        $f();
        echo "no exception\n";
    } catch (Throwable $e) {
        echo get_class($e), ' ', $e->getCode(), ': ', str_replace($addrs, 'ADDR', $e->getMessage()), "\n";
    }
}

show(fn() => new RedisLock(['cluster' => []]));
show(fn() => new RedisLock(['cluster' => '127.0.0.1:7000']));
show(fn() => new RedisLock(['cluster' => ['a' => '127.0.0.1:7000']]));
show(fn() => new RedisLock(['cluster' => ['127.0.0.1:7000'], 'password' => 'x']));
show(fn() => new RedisLock(['cluster' => ['unix:///tmp/x.sock']]));
show(fn() => new RedisLock(['cluster' => ['redis://127.0.0.1:7000/2']]));
show(fn() => new RedisLock(['cluster' => [['cluster' => ['127.0.0.1:7000']]]]));
show(fn() => new RedisLock(['cluster' => ['127.0.0.1:0']]));
show(fn() => new RedLock([['cluster' => ['127.0.0.1:7000']], ['sentinels' => ['127.0.0.1:26379'], 'service' => 'm']]));
// a URL's password is not echoed
show(fn() => new RedisLock(['cluster' => ['redis://:T504-secret@127.0.0.1:7000/3']]));

// a plain server as a seed: it says it is not a cluster
$plain = rl_test_server(0);
$addrs[] = $plain;
show(fn() => (new RedisLock(['cluster' => [$plain]]))->lock('c504', 1000));
// seeds where nobody listens
$dead = ['127.0.0.1:' . rl_free_port(), '127.0.0.1:' . rl_free_port()];
array_push($addrs, ...$dead);
show(fn() => (new RedisLock(['cluster' => $dead]))->lock('c504', 1000));
// both: the answers of each
show(fn() => (new RedisLock(['cluster' => [$dead[0], $plain]]))->unlock('c504', 'x'));
// a node with cluster mode on but no slots assigned: no map covers every slot
$srv = new RlTestServer(['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf']);
$addrs[] = $srv->addr();
show(fn() => (new RedisLock(['cluster' => [$srv->addr()]]))->lock('c504', 1000));
// in a RedLock, a failing cluster is one failed vote among the others
$rl = new RedLock([['cluster' => [$plain]], rl_test_server(1), rl_test_server(2)]);
$t = $rl->lock('c504', 5000);
echo "RedLock with one bad cluster vote still locks: ", var_export(is_string($t), true), "\n";
var_dump($rl->unlock('c504', $t));
?>
--EXPECT--
ValueError 0: RedisLock::__construct(): Argument #1 ($server) ["cluster"] must be a non-empty list of seed node addresses
ValueError 0: RedisLock::__construct(): Argument #1 ($server) ["cluster"] must be a non-empty list of seed node addresses
ValueError 0: RedisLock::__construct(): Argument #1 ($server) ["cluster"] must be a non-empty list of seed node addresses
ValueError 0: RedisLock::__construct(): Argument #1 ($server) must be a cluster with only the key "cluster" (its seed nodes; options such as the password go in $options)
ValueError 0: RedisLock::__construct(): Argument #1 ($server) ["cluster"][0] must be a TCP address: cluster nodes name each other by host and port
ValueError 0: RedisLock::__construct(): Argument #1 ($server) ["cluster"][0] must not select a database: a cluster has only database 0
ValueError 0: RedisLock::__construct(): Argument #1 ($server) ["cluster"][0] must be a node address, not a group of nodes
ValueError 0: RedisLock::__construct(): Argument #1 ($server) ["cluster"][0] must be a valid server address ("ADDR"): port must be a number from 1 to 65535
ValueError 0: RedLock::__construct(): Argument #1 ($servers) must not mix sentinel groups and clusters
ValueError 0: RedisLock::__construct(): Argument #1 ($server) ["cluster"][0] must not select a database: a cluster has only database 0
RedisLockConnectionException 15: Redis node cluster ADDR: no node answered with a slot map covering every slot: ADDR: ERR This instance has cluster support disabled
RedisLockConnectionException 15: Redis node cluster ADDR, ...: no node answered with a slot map covering every slot: ADDR: connect: Connection refused; ADDR: connect: Connection refused
RedisLockConnectionException 15: Redis node cluster ADDR, ...: no node answered with a slot map covering every slot: ADDR: connect: Connection refused; ADDR: ERR This instance has cluster support disabled
RedisLockConnectionException 15: Redis node cluster ADDR: no node answered with a slot map covering every slot: ADDR: CLUSTER SLOTS: not every slot is served (cluster not ready)
RedLock with one bad cluster vote still locks: true
bool(true)