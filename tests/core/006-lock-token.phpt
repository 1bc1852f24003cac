--TEST--
lock(): returns a 32-char lowercase hex token, stored as the key's value, with the TTL in ms; null while held
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t006', 'lock:t006-short');

$a = new RedisLock(rl_test_server(0));
$b = new RedisLock(rl_test_server(0));

$token = $a->lock('t006', 20000);
var_dump(is_string($token));
var_dump(strlen($token));
var_dump((bool)preg_match('/^[0-9a-f]{32}$/', $token));
var_dump($r->get('lock:t006') === $token);
$pttl = $r->pttl('lock:t006');
var_dump($pttl > 15000 && $pttl <= 20000);

echo "held: another object gets null, with and without waiting\n";
var_dump($b->lock('t006', 20000));
var_dump($b->lock('t006', 20000, 0.05));
var_dump($r->get('lock:t006') === $token);

echo "a ttl in ms, not seconds:\n";
$t2 = $a->lock('t006-short', 1500);
$pttl = $r->pttl('lock:t006-short');
var_dump($pttl > 0 && $pttl <= 1500);
var_dump($t2 !== $token);

var_dump($a->unlock('t006', $token));
var_dump($a->unlock('t006-short', $t2));
var_dump($r->exists('lock:t006', 'lock:t006-short'));
?>
--EXPECT--
bool(true)
int(32)
bool(true)
bool(true)
bool(true)
held: another object gets null, with and without waiting
NULL
NULL
bool(true)
a ttl in ms, not seconds:
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
