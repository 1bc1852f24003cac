--TEST--
Option "refresh_own" false and a node that does not answer in time: the lock() that timed out takes nothing back afterwards (no deferred undo by its token), so the owner's lock held by another process stays, and nobody else can take it; a fresh token's timed-out lock() still takes its own SET back
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$s = new RlTestServer();
$r = new RlTestRedis($s->addr());
$a = new RedisLock($s->addr(), ['reentrant' => false]);
var_dump($a->lock('u805', 60000, 0.0, 'X'));                 // a queued job's lock, in another process

$b = new RedisLock($s->addr(), ['reentrant' => false, 'refresh_own' => false, 'timeout' => 0.2]);
var_dump($b->isLocked('u805'));                             // connected
$s->pause();
try {
    $b->lock('u805', 60000, 0.0, 'X');
    echo "no timeout\n";
} catch (RedisLockConnectionException $e) {
    echo get_class($e), "\n";
}
$s->resume();
usleep(1200000);                                            // past the node's 1 s bench
var_dump($b->isLocked('other805'));                         // its next command: nothing deferred is sent
var_dump($r->get('lock:u805'));
$c = new RedisLock($s->addr());
var_dump($c->lock('u805', 5000));                           // still held: nobody else has it

echo "-- a fresh token's SET that ran late is still taken back\n";
$d = new RedisLock($s->addr(), ['refresh_own' => false, 'timeout' => 0.2]);
var_dump($d->isLocked('v805'));
$s->pause();
try {
    $d->lock('v805', 60000);
} catch (RedisLockConnectionException $e) {
    echo get_class($e), "\n";
}
$s->resume();
usleep(1200000);
var_dump($d->isLocked('other805'), $r->exists('lock:v805'));
var_dump($a->unlock('u805', 'X'));
?>
--EXPECT--
string(1) "X"
bool(true)
RedisLockConnectionException
bool(false)
string(1) "X"
NULL
-- a fresh token's SET that ran late is still taken back
bool(false)
RedisLockConnectionException
bool(false)
int(0)
bool(true)
