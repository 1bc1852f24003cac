--TEST--
unlock(): false with a wrong token (key kept), true with the right one (key gone), false once gone
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t007');

$a = new RedisLock(rl_test_server(0));
$b = new RedisLock(rl_test_server(0));

$token = $a->lock('t007', 30000);
$wrong = str_repeat('0', 32) === $token ? str_repeat('1', 32) : str_repeat('0', 32);

echo "wrong tokens:\n";
foreach ([$wrong, strtoupper($token), substr($token, 0, 31), $token . 'x', 'x'] as $t) {
    var_dump($a->unlock('t007', $t));
    var_dump($r->get('lock:t007') === $token);
}
echo "the right token, from another object (tokens are portable):\n";
var_dump($b->unlock('t007', $token));
var_dump($r->exists('lock:t007'));
echo "again:\n";
var_dump($a->unlock('t007', $token));
var_dump($b->unlock('t007', $token));

echo "the holder's own unlock:\n";
$token = $a->lock('t007', 30000);
var_dump($a->unlock('t007', $token));
var_dump($r->exists('lock:t007'));
echo "a token of another resource does not unlock this one:\n";
$t1 = $a->lock('t007', 30000);
$r->del('lock:t007-other');
$t2 = $b->lock('t007-other', 30000);
var_dump($a->unlock('t007', $t2));
var_dump($r->get('lock:t007') === $t1);
var_dump($b->unlock('t007-other', $t2));
var_dump($a->unlock('t007', $t1));
var_dump($r->exists('lock:t007', 'lock:t007-other'));
?>
--EXPECT--
wrong tokens:
bool(false)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
the right token, from another object (tokens are portable):
bool(true)
int(0)
again:
bool(false)
bool(false)
the holder's own unlock:
bool(true)
int(0)
a token of another resource does not unlock this one:
bool(false)
bool(true)
bool(true)
bool(true)
int(0)
