--TEST--
Option "refresh_own" false across a connection lost mid-command: the resend (the form safe to repeat) still finds the owner's lock held elsewhere held, so two processes never both have it; a free lock whose SET landed is left to its TTL (not had: the unsafe side loses), and a waiting lock() refuses too
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../hostile.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:c405', 'lock:c405-free', 'lock:c405-w');
$proxy = new RlHostileServer('garbage');
$proxy->proxyTo(rl_test_port(0));

$elsewhere = new RedisLock(rl_test_server(0), ['reentrant' => false]);
var_dump($elsewhere->lock('c405', 30000, 0.0, 'owner'));        // a queued job's, taken by another process

$b = new RedisLock($proxy->addr(), ['reentrant' => false, 'refresh_own' => false]);
var_dump($b->isLocked('c405'));                                   // connected, the script cached
echo "-- the SET is cut: the resend finds the owner's lock held\n";
$before = $proxy->accepted();
$proxy->cutAt('SET');
var_dump($b->lock('c405', 30000, 0.0, 'owner'), $proxy->accepted() > $before);
var_dump($r->get('lock:c405'), $r->pttl('lock:c405') > 20000);

echo "-- a free one whose SET landed, its reply lost: not had (the owner's lock could be another's), left to its TTL\n";
$proxy->cutAt('SET');
var_dump($b->lock('c405-free', 30000, 0.0, 'owner'), $r->get('lock:c405-free'));
var_dump($b->unlock('c405-free', 'owner'));

echo "-- waiting: the cut script is sent again, the lock still held\n";
$elsewhere->lock('c405-w', 30000, 0.0, 'owner');
$before = $proxy->accepted();
$proxy->cutAt('EVALSHA');
var_dump($b->lock('c405-w', 30000, 0.3, 'owner'), $proxy->accepted() > $before);
$elsewhere->unlock('c405-w', 'owner');
$elsewhere->unlock('c405', 'owner');
var_dump($r->exists('lock:c405', 'lock:c405-free', 'lock:c405-w'));
?>
--EXPECT--
string(5) "owner"
bool(true)
-- the SET is cut: the resend finds the owner's lock held
NULL
bool(true)
string(5) "owner"
bool(true)
-- a free one whose SET landed, its reply lost: not had (the owner's lock could be another's), left to its TTL
NULL
string(5) "owner"
bool(true)
-- waiting: the cut script is sent again, the lock still held
NULL
bool(true)
int(0)
