--TEST--
RedLock: a node that answers with an error is a vote against; too many such nodes throw, naming them
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$open1 = new RlTestServer();
$open2 = new RlTestServer();
$locked1 = new RlTestServer(['--requirepass', 'pw-108']);
$locked2 = new RlTestServer(['--requirepass', 'pw-108']);

// one node refuses (NOAUTH): 2 of 3 still make the quorum
$lock = new RedLock([$open1->addr(), $open2->addr(), $locked1->addr()], 0, 1);
$t = $lock->lock('rl108', 10000);
echo "won with one refusing node: ", is_string($t) ? 'yes' : 'no', "\n";
var_dump($lock->unlock('rl108', $t));

// two refuse: no quorum can answer
$lock = new RedLock([$open1->addr(), $locked1->addr(), $locked2->addr()], 0, 1);
try {
    $lock->lock('rl108', 10000);
    echo "no exception\n";
} catch (RedisLockException $e) {
    echo get_class($e), "\n";
    $m = $e->getMessage();
    echo str_contains($m, $locked1->addr()) && str_contains($m, $locked2->addr()) ? "names both\n" : "message: $m\n";
    echo str_contains($m, 'NOAUTH') ? "says why\n" : "message: $m\n";
}
echo "left on the open node: ", count($open1->client()->keys('lock:*')), "\n";
?>
--EXPECT--
won with one refusing node: yes
bool(true)
RedisLockConnectionException
names both
says why
left on the open node: 0
