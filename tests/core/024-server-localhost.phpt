--TEST--
"localhost:PORT" reaches a node listening on 127.0.0.1 only (whatever localhost resolves to first)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$port = rl_test_port(0);
$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t024');

foreach (["localhost:$port", "tcp://localhost:$port", ['host' => 'localhost', 'port' => $port]] as $server) {
    $l = new RedisLock($server, ['persistent' => false]);
    $t = $l->lock('t024', 30000);
    var_dump(is_string($t) && $r->get('lock:t024') === $t);
    var_dump($l->extend('t024', $t, 40000));
    var_dump($l->unlock('t024', $t));
    var_dump($r->exists('lock:t024'));
}
$l = new RedisLock("localhost:$port");
var_dump($l->acquireLock('t024', 5));
var_dump($r->exists('lock:t024'));
var_dump($l->releaseLock('t024'));
$r->del('lock:t024');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
int(1)
bool(true)
