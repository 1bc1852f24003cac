--TEST--
Sentinel: a lock held across a failover is reported honestly: unlock()/extend() say true only when the new master holds our token (Redis replicates asynchronously: the replica may or may not have had the key)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); require_once __DIR__ . '/../sentinel.inc'; rl_skip_unless_sentinel(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';

$g = new RlTestSentinelGroup('mymaster');
$group = ['sentinels' => $g->sentinelAddrs(), 'service' => 'mymaster'];
$lock = new RedisLock($group);
$a = $lock->lock('s123a', 30000);
$b = $lock->lock('s123b', 30000);

[$old, $new] = $g->failover();
$n = $g->client($new);
// what the new master has decides what unlock() may say; never more
$hadA = $n->get('lock:s123a') === $a;
$r = $lock->extend('s123a', $a, 30000);
echo "extend agrees with the new master: ", var_export($r === $hadA, true), "\n";
$r = $lock->unlock('s123a', $a);
echo "unlock agrees with the new master: ", var_export($r === $hadA, true), "\n";
var_dump($n->exists('lock:s123a'));

// the loss a failover can cause, made certain: the key did not reach the
// new master (simulated by deleting it there). The old holder is told it
// no longer holds the lock, and another client can take it.
$n->del('lock:s123b');
var_dump($lock->extend('s123b', $b, 30000));
var_dump($lock->unlock('s123b', $b));
$other = new RedisLock($group);
echo "another client takes it: ", var_export(is_string($other->lock('s123b', 1000)), true), "\n";
?>
--EXPECT--
extend agrees with the new master: true
unlock agrees with the new master: true
int(0)
bool(false)
bool(false)
another client takes it: true
