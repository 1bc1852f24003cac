--TEST--
Sentinel: once() through a sentinel group: one caller rebuilds on the master, the 4 that queue there meanwhile are all woken when it returns, without the lock; if the rebuild throws, exactly one waiter takes over
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); require_once __DIR__ . '/../sentinel.inc'; rl_skip_unless_sentinel(); rl_skip_unless_servers(1); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';
require __DIR__ . '/../guard.inc';

$g = new RlTestSentinelGroup('mymaster');
$m = $g->client($g->masterAddr());
$make = 'new RedisLock(' . var_export(['sentinels' => $g->sentinelAddrs(), 'service' => 'mymaster'], true) . ', $o)';
foreach (['return', 'throw'] as $case) {
    echo "-- the first rebuild's end: $case\n";
    $res = "g131-$case";
    rl_guard_round($make, $res, 4, $case, fn() => $m->cmd('LLEN', rl_derived_key("lock:$res", 'q')));
    echo "left on the master: ", $m->cmd('LLEN', rl_derived_key("lock:$res", 'q')) + $m->exists("lock:$res"), "\n";
}
?>
--EXPECT--
-- the first rebuild's end: return
ran with 'page 1': 1
waited with 'page 1': 4
rebuilds run: 1
left on the master: 0
-- the first rebuild's end: throw
first rebuilder: threw
ran: 1
waited: 3
rebuilds run: 2
left on the master: 0
