--TEST--
Sentinel: master killed (SIGKILL): calls fail with the node's error until the sentinels elect a new master (bounded wait), then locking goes on against it
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); require_once __DIR__ . '/../sentinel.inc'; rl_skip_unless_sentinel(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';

$g = new RlTestSentinelGroup('mymaster');
$lock = new RedisLock(['sentinels' => $g->sentinelAddrs(), 'service' => 'mymaster'], ['timeout' => 5.0]);
$t = $lock->lock('s122', 10000);
$old = $g->masterAddr();
$g->node($old)->kill();

// before the sentinels notice, a call may fail: a connection error naming the old master
try {
    $r = $lock->lock('s122b', 10000);
    echo "right after the kill: ", $r === null ? "null" : "locked", " (sentinels already knew)\n";
} catch (RedisLockConnectionException $e) {
    echo "right after the kill: ", str_contains($e->getMessage(), $old) ? "exception naming the old master" : $e->getMessage(), "\n";
}

// a bounded wait for the condition (it throws when none comes); the time it
// took is the sentinels' and the machine's, not asserted
$new = $g->waitNewMaster($old, 60.0);
$t2 = $lock->lock('s122c', 10000);
echo "locked on the new master: ", var_export(is_string($t2) && $g->client($new)->get('lock:s122c') === $t2, true), "\n";
var_dump($lock->unlock('s122c', $t2));
echo "elected: ", var_export($new !== $old, true), "\n";
?>
--EXPECTF--
right after the kill: %s
locked on the new master: true
bool(true)
elected: true
