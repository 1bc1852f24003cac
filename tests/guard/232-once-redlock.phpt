--TEST--
once() (RedLock on 4 nodes, one of them down: a quorum of 3): one caller rebuilds and the 5 that queue on the nodes meanwhile are all woken when it returns, without the lock; if the rebuild throws, exactly one waiter takes over; nothing left queued on any node
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../guard.inc';
require_once __DIR__ . '/../free_port.inc';

$nodes = rl_test_servers(3);
$nodes[] = ['host' => '127.0.0.1', 'port' => rl_free_port()];     // nothing listens there
$make = 'new RedLock(' . var_export($nodes, true) . ', 200, 3, $o)';
$rs = [new RlTestRedis(rl_test_server(0)), new RlTestRedis(rl_test_server(1)), new RlTestRedis(rl_test_server(2))];
foreach (['return', 'throw'] as $case) {
    echo "-- the first rebuild's end: $case\n";
    $res = "g232-$case";
    // queued on every live node (each waiter's attempt is answered by all three)
    $queued = fn() => min(array_map(fn($r) => $r->cmd('LLEN', rl_derived_key("lock:$res", 'q')), $rs));
    rl_guard_round($make, $res, 5, $case, $queued);
    echo "left queued or held: ", array_sum(array_map(fn($r) => $r->cmd('LLEN', rl_derived_key("lock:$res", 'q'))
        + $r->exists("lock:$res"), $rs)), "\n";
}
?>
--EXPECT--
-- the first rebuild's end: return
ran with 'page 1': 1
waited with 'page 1': 5
rebuilds run: 1
left queued or held: 0
-- the first rebuild's end: throw
first rebuilder: threw
ran: 1
waited: 4
rebuilds run: 2
left queued or held: 0
