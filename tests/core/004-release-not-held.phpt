--TEST--
releaseLock(): false for a lock this object does not hold; another object's release does not delete the key
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t004-a', 'lock:t004-b', 'lock:t004-free');

$owner = new RedisLock(rl_test_server(0));
$other = new RedisLock(rl_test_server(0));

echo "never locked:\n";
var_dump($owner->releaseLock('t004-free'));
var_dump($r->exists('lock:t004-free'));

echo "held by owner, released by another object:\n";
var_dump($owner->acquireLock('t004-a', 30));
$token = $r->get('lock:t004-a');
var_dump($other->releaseLock('t004-a'));
var_dump($r->get('lock:t004-a') === $token);
echo "another object cannot take it:\n";
var_dump($other->acquireLock('t004-a', 30));
var_dump($r->get('lock:t004-a') === $token);

echo "owner releases:\n";
var_dump($owner->releaseLock('t004-a'));
var_dump($r->exists('lock:t004-a'));
echo "released twice:\n";
var_dump($owner->releaseLock('t004-a'));

echo "a key set by someone else with the same name:\n";
$r->set('lock:t004-b', 'someone-elses-token', 'PX', 30000);
var_dump($owner->releaseLock('t004-b'));
var_dump($r->get('lock:t004-b'));
var_dump($owner->acquireLock('t004-b', 30));
var_dump($owner->releaseLock('t004-b'));
var_dump($r->get('lock:t004-b'));

echo "free again: the other object takes it\n";
var_dump($other->acquireLock('t004-a', 30));
var_dump($owner->releaseLock('t004-a'));
var_dump($r->exists('lock:t004-a'));
var_dump($other->releaseLock('t004-a'));
var_dump($r->exists('lock:t004-a'));

$r->del('lock:t004-a', 'lock:t004-b');
?>
--EXPECT--
never locked:
bool(false)
int(0)
held by owner, released by another object:
bool(true)
bool(false)
bool(true)
another object cannot take it:
bool(false)
bool(true)
owner releases:
bool(true)
int(0)
released twice:
bool(false)
a key set by someone else with the same name:
bool(false)
string(19) "someone-elses-token"
bool(false)
bool(false)
string(19) "someone-elses-token"
free again: the other object takes it
bool(true)
bool(false)
int(1)
bool(true)
int(0)
