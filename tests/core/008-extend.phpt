--TEST--
extend(): sets the key's PTTL to the new ttl with the right token; false with a wrong token, TTL unchanged
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t008', 'lock:t008-none');

$a = new RedisLock(rl_test_server(0));
$b = new RedisLock(rl_test_server(0));

$token = $a->lock('t008', 5000);

echo "longer:\n";
var_dump($a->extend('t008', $token, 60000));
$pttl = $r->pttl('lock:t008');
var_dump($pttl > 55000 && $pttl <= 60000);
echo "shorter (sets, does not add):\n";
var_dump($a->extend('t008', $token, 3000));
$pttl = $r->pttl('lock:t008');
var_dump($pttl > 0 && $pttl <= 3000);
var_dump($r->get('lock:t008') === $token);

echo "wrong token:\n";
$wrong = ($token[0] === 'f' ? 'e' : 'f') . substr($token, 1);
var_dump($a->extend('t008', $wrong, 60000));
var_dump($b->extend('t008', 'not-the-token', 60000));
$pttl = $r->pttl('lock:t008');
var_dump($pttl > 0 && $pttl <= 3000);
var_dump($r->get('lock:t008') === $token);

echo "the right token from another object:\n";
var_dump($b->extend('t008', $token, 40000));
$pttl = $r->pttl('lock:t008');
var_dump($pttl > 35000 && $pttl <= 40000);

echo "no such key:\n";
var_dump($a->extend('t008-none', $token, 60000));
var_dump($r->exists('lock:t008-none'));

echo "after unlock:\n";
var_dump($a->unlock('t008', $token));
var_dump($a->extend('t008', $token, 60000));
var_dump($r->exists('lock:t008'));
?>
--EXPECT--
longer:
bool(true)
bool(true)
shorter (sets, does not add):
bool(true)
bool(true)
bool(true)
wrong token:
bool(false)
bool(false)
bool(true)
bool(true)
the right token from another object:
bool(true)
bool(true)
no such key:
bool(false)
int(0)
after unlock:
bool(true)
bool(false)
int(0)
