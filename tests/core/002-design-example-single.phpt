--TEST--
The design's single-node example, as written, with a phpredis \Redis connection
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
redis
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$check = new RlTestRedis(rl_test_server(0));
$check->del('lock:my_resource');

$redis = new Redis();
$redis->connect(rl_test_host(), rl_test_port(0));

$ran = false;

// single node
$lock = new RedisLock($redis);                 // $redis: a connected phpredis \Redis
if ($lock->acquireLock('my_resource', 5)) {    // TTL in seconds, one try
    try { /* critical section */
        $ran = true;
        // Held: another lock object cannot take it, on its own connection.
        $other = new RedisLock(rl_test_server(0));
        var_dump($other->acquireLock('my_resource', 5));
        var_dump($other->lock('my_resource', 5000));
        // The key, its token and its TTL, as Redis sees them.
        var_dump($check->keys('lock:my_resource*'));
        $token = $check->get('lock:my_resource');
        var_dump((bool)preg_match('/^[0-9a-f]{32}$/', $token));
        $pttl = $check->pttl('lock:my_resource');
        var_dump($pttl > 3000 && $pttl <= 5000);
        // The phpredis connection still works and sees the same key.
        var_dump($redis->get('lock:my_resource') === $token);
    } finally { $lock->releaseLock('my_resource'); }
}
var_dump($ran);
var_dump($check->exists('lock:my_resource'));

// Released: the other object can take it now.
$other = new RedisLock(rl_test_server(0));
var_dump($other->acquireLock('my_resource', 5));
var_dump($other->releaseLock('my_resource'));
var_dump($check->exists('lock:my_resource'));
?>
--EXPECT--
bool(false)
NULL
array(1) {
  [0]=>
  string(16) "lock:my_resource"
}
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
int(0)
