--TEST--
Option prefix: keys are prefix . resource ("lock:" by default); different prefixes are different locks
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t012', 't012app:locks:t012', 't012{x}/t012');

$default = new RedisLock(rl_test_server(0));
$app = new RedisLock(rl_test_server(0), ['prefix' => 't012app:locks:']);
$odd = new RedisLock(rl_test_server(0), ['prefix' => 't012{x}/']);

$t1 = $default->lock('t012', 30000);
$t2 = $app->lock('t012', 30000);
$t3 = $odd->lock('t012', 30000);
var_dump(is_string($t1), is_string($t2), is_string($t3));
var_dump($r->keys('*t012*'));
var_dump($r->get('lock:t012') === $t1);
var_dump($r->get('t012app:locks:t012') === $t2);
var_dump($r->get('t012{x}/t012') === $t3);

echo "same prefix, another object: held\n";
$app2 = new RedisLock(rl_test_server(0), ['prefix' => 't012app:locks:']);
var_dump($app2->lock('t012', 30000));
var_dump($app2->acquireLock('t012', 30));

echo "unlock goes to the prefixed key only:\n";
var_dump($default->unlock('t012', $t2));
var_dump($app->unlock('t012', $t2));
var_dump($r->keys('*t012*'));

echo "acquireLock/releaseLock/extend with the prefix:\n";
var_dump($app2->acquireLock('t012', 30));
var_dump($r->exists('t012app:locks:t012'));
var_dump($app2->releaseLock('t012'));
var_dump($odd->extend('t012', $t3, 50000));
var_dump($r->pttl('t012{x}/t012') > 40000);
var_dump($odd->unlock('t012', $t3));
var_dump($default->unlock('t012', $t1));
var_dump($r->keys('*t012*'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
array(3) {
  [0]=>
  string(9) "lock:t012"
  [1]=>
  string(18) "t012app:locks:t012"
  [2]=>
  string(12) "t012{x}/t012"
}
bool(true)
bool(true)
bool(true)
same prefix, another object: held
NULL
bool(false)
unlock goes to the prefixed key only:
bool(false)
bool(true)
array(2) {
  [0]=>
  string(9) "lock:t012"
  [1]=>
  string(12) "t012{x}/t012"
}
acquireLock/releaseLock/extend with the prefix:
bool(true)
int(1)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
