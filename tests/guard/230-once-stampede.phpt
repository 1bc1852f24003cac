--TEST--
once() (RedisLock): one caller rebuilds, the 6 that queue meanwhile are all woken when it returns and return ONCE_WAITED without taking the lock; if the rebuild throws, dies of a fatal error, or is SIGKILLed (auto_extend, TTL 1 s), exactly one waiter takes over and runs its own rebuild, and the rest return when that one is done; nothing is left in Redis but the wake streams, which expire within 10 s
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('posix_kill')) die('skip posix extension needed'); ?>
--FILE--
<?php
require __DIR__ . '/../guard.inc';

$r = new RlTestRedis(rl_test_server(0));
$make = 'new RedisLock(rl_test_server(0), $o)';
foreach (['return', 'throw', 'fatal', 'kill'] as $case) {
    echo "-- the first rebuild's end: $case\n";
    $res = "g230-$case";
    $queued = fn() => $r->cmd('LLEN', rl_derived_key("lock:$res", 'q'));
    $kill = $case === 'kill';
    rl_guard_round($make, $res, 6, $case, $queued, $kill ? 1000 : 30000, $kill ? ['auto_extend' => true] : []);
    // the lock and its queue are gone; the wake streams the waiters read expire 10 s after
    $left = array_filter($r->keys("lock:$res*"), fn($k) => $r->cmd('TYPE', $k) !== 'stream' || $r->pttl($k) > 10000);
    echo "lock keys left: ", count($left), "\n";
}
?>
--EXPECT--
-- the first rebuild's end: return
ran with 'page 1': 1
waited with 'page 1': 6
rebuilds run: 1
lock keys left: 0
-- the first rebuild's end: throw
first rebuilder: threw
ran: 1
waited: 5
rebuilds run: 2
lock keys left: 0
-- the first rebuild's end: fatal
first rebuilder: fatal error
ran: 1
waited: 5
rebuilds run: 2
lock keys left: 0
-- the first rebuild's end: kill
first rebuilder: killed
ran: 1
waited: 5
rebuilds run: 2
lock keys left: 0
