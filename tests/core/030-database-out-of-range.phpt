--TEST--
Option database beyond the server's databases: RedisLockException naming the node and SELECT
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer(['--databases', '16']);
$c = $srv->client();

$l = new RedisLock($srv->addr(), ['database' => 99]);
foreach (['lock' => fn() => $l->lock('t030', 1000), 'acquireLock' => fn() => $l->acquireLock('t030', 1),
          'unlock' => fn() => $l->unlock('t030', 'tok'), 'extend' => fn() => $l->extend('t030', 'tok', 1000)] as $what => $f) {
    try {
        $f();
        echo "$what: no exception\n";
    } catch (RedisLockException $e) {
        echo "$what: ", get_class($e), ': ', str_replace($srv->addr(), 'ADDR', $e->getMessage()), "\n";
    }
}
// No key anywhere.
var_dump($c->keys());

// The last database exists.
$l = new RedisLock($srv->addr(), ['database' => 15]);
$t = $l->lock('t030', 30000);
var_dump($c->cmd('SELECT', 15), $c->get('lock:t030') === $t, $l->unlock('t030', $t));
?>
--EXPECT--
lock: RedisLockException: Redis node ADDR: SELECT refused: ERR DB index is out of range
acquireLock: RedisLockException: Redis node ADDR: SELECT refused: ERR DB index is out of range
unlock: RedisLockException: Redis node ADDR: SELECT refused: ERR DB index is out of range
extend: RedisLockException: Redis node ADDR: SELECT refused: ERR DB index is out of range
array(0) {
}
string(2) "OK"
bool(true)
bool(true)
