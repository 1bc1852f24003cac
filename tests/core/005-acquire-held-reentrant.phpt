--TEST--
acquireLock(): one try, false while another object holds it; re-acquiring by the holder is counted
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t005');

$a = new RedisLock(rl_test_server(0));
$b = new RedisLock(rl_test_server(0));

var_dump($a->acquireLock('t005', 30));
$token = $r->get('lock:t005');
echo "b tries while a holds:\n";
var_dump($b->acquireLock('t005', 30));
var_dump($b->lock('t005', 30000));
var_dump($r->get('lock:t005') === $token);

echo "a acquires again (re-entrant), with a longer timeout:\n";
var_dump($a->acquireLock('t005', 60));
var_dump($r->get('lock:t005') === $token);
$pttl = $r->pttl('lock:t005');
var_dump($pttl > 30000 && $pttl <= 60000);

echo "first release keeps the key:\n";
var_dump($a->releaseLock('t005'));
var_dump($r->get('lock:t005') === $token);
var_dump($b->acquireLock('t005', 30));

echo "last release deletes it:\n";
var_dump($a->releaseLock('t005'));
var_dump($r->exists('lock:t005'));
var_dump($a->releaseLock('t005'));

echo "now b gets it:\n";
var_dump($b->acquireLock('t005', 30));
var_dump($a->acquireLock('t005', 30));
var_dump($b->releaseLock('t005'));
var_dump($r->exists('lock:t005'));
?>
--EXPECT--
bool(true)
b tries while a holds:
bool(false)
NULL
bool(true)
a acquires again (re-entrant), with a longer timeout:
bool(true)
bool(true)
bool(true)
first release keeps the key:
bool(true)
bool(true)
bool(false)
last release deletes it:
bool(true)
int(0)
bool(false)
now b gets it:
bool(true)
bool(false)
bool(true)
int(0)
