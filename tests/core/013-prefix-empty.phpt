--TEST--
Option prefix '': the key is the resource name itself
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('t013-bare', 'lock:t013-bare');

$bare = new RedisLock(rl_test_server(0), ['prefix' => '']);
$t = $bare->lock('t013-bare', 30000);
var_dump($r->keys('*t013*'));
var_dump($r->get('t013-bare') === $t);

echo "the default prefix is a different key:\n";
$prefixed = new RedisLock(rl_test_server(0));
$t2 = $prefixed->lock('t013-bare', 30000);
var_dump(is_string($t2));
echo "and a resource named like the prefixed key is the same key:\n";
var_dump($bare->lock('lock:t013-bare', 30000));
var_dump($bare->unlock('lock:t013-bare', $t2));
var_dump($r->keys('*t013*'));

echo "acquireLock/releaseLock:\n";
$other = new RedisLock(rl_test_server(0), ['prefix' => '']);
var_dump($other->acquireLock('t013-bare', 5));
var_dump($bare->unlock('t013-bare', $t));
var_dump($other->acquireLock('t013-bare', 5));
var_dump($r->get('t013-bare') !== $t);
var_dump($other->releaseLock('t013-bare'));
var_dump($r->keys('*t013*'));
?>
--EXPECT--
array(1) {
  [0]=>
  string(9) "t013-bare"
}
bool(true)
the default prefix is a different key:
bool(true)
and a resource named like the prefixed key is the same key:
NULL
bool(true)
array(1) {
  [0]=>
  string(9) "t013-bare"
}
acquireLock/releaseLock:
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
