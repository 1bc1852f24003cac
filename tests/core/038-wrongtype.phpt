--TEST--
A resource whose key is not a string (a list): lock() says held; unlock()/extend() throw the server's WRONGTYPE naming the node
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$node = rl_test_server(0);
$r = new RlTestRedis($node);
$r->del('lock:t038', 'lock:t038-ok');
var_dump($r->cmd('RPUSH', 'lock:t038', 'a', 'b'));

$lock = new RedisLock($node);
var_dump($lock->lock('t038', 10000));
var_dump($lock->acquireLock('t038', 10));
var_dump($lock->releaseLock('t038'));

foreach (['unlock' => fn() => $lock->unlock('t038', 'some-token'),
          'extend' => fn() => $lock->extend('t038', 'some-token', 10000)] as $what => $f) {
    try {
        var_dump($f());
    } catch (RedisLockException $e) {
        echo "$what: ", get_class($e), ': ', str_replace($node, 'NODE', $e->getMessage()), "\n";
    }
}
// The list is untouched and the connection still serves the next call.
var_dump($r->cmd('TYPE', 'lock:t038'), $r->cmd('LRANGE', 'lock:t038', 0, -1));
$t = $lock->lock('t038-ok', 10000);
var_dump(is_string($t), $lock->unlock('t038-ok', $t));
$r->del('lock:t038');
?>
--EXPECTF--
int(2)
NULL
bool(false)
bool(false)
unlock: RedisLockException: Redis node NODE: WRONGTYPE Operation against a key holding the wrong kind of value%A
extend: RedisLockException: Redis node NODE: WRONGTYPE Operation against a key holding the wrong kind of value%A
string(4) "list"
array(2) {
  [0]=>
  string(1) "a"
  [1]=>
  string(1) "b"
}
bool(true)
bool(true)
