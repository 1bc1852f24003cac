--TEST--
Sentinel: locks(), inspect() and the redislock command (--sentinel, --service) read the master the sentinels name; release frees the lock there
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); require_once __DIR__ . '/../sentinel.inc'; rl_skip_unless_sentinel(); rl_skip_unless_servers(1); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';
require __DIR__ . '/../cli.inc';

$g = new RlTestSentinelGroup('mymaster');
$master = $g->masterAddr();
$l = new RedisLock(['sentinels' => $g->sentinelAddrs(), 'service' => 'mymaster']);
$t = $l->lock('s132-a', 30000);
$l->lockShared('s132-b', 30000);
echo "locks(): ", json_encode($l->locks('s132-*')), "\n";
$s = $l->inspect('s132-a');
echo "inspect(): {$s['kind']} on ", $s['node'] === $master ? 'the master' : "NO ({$s['node']})", "\n";
$via = [];
foreach ($g->sentinelAddrs() as $a) {
    array_push($via, '--sentinel', $a);
}
[$rc, $out] = rl_cli(...[...$via, '--service', 'mymaster', 'list', 's132-*']);
echo "list: exit $rc\n", preg_replace(['/\d+\.\d{3} s/', '/ {2,}/'], ['T s', '  '], str_replace($master, 'MASTER', $out));
[$rc, $out] = rl_cli(...[...$via, '--service', 'mymaster', 'release', 's132-a', '--yes']);
echo "release: exit $rc, still held: ", $l->holds('s132-a', $t) ? 'YES' : 'no', "\n";
[$rc, $out, $err] = rl_cli(...[...$via, '--service', 'no-such-service', 'show', 's132-a']);
echo "an unknown service: exit $rc, ", substr_count($err, "\n") === 1 ? 'one line' : 'NOT ONE LINE', "\n";
?>
--EXPECT--
locks(): ["s132-a","s132-b"]
inspect(): lock on the master
list: exit 0
resource  node  kind  holders  ttl  waiters  fence
s132-a  MASTER  lock  1  T s  0  -
s132-b  MASTER  shared  1  T s  0  -
release: exit 0, still held: no
an unknown service: exit 1, one line
