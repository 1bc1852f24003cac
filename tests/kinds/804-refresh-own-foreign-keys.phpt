--TEST--
Option "refresh_own" false: lock() naming a token that holds the lock finds it held (SET NX, as Laravel's locks), also waiting, with fencing, re-entrant and on RedLock; a sorted set at the lock key (Symfony's RedisStore, a semaphore) is held, not an error; a key of another type is an error naming it, left as it was; lockMany() as lock() in its script
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:o804', 'lock:o804-f', 'lock:o804-z', 'lock:o804-h', 'lock:o804-m', 'lock:o804-n');
function show(callable $f): void
{
    try {
        var_dump($f());
    } catch (Throwable $e) {
        echo get_class($e), ': ', str_replace(rl_test_server(0), 'NODE', $e->getMessage()), "\n";
    }
}

echo "-- the owner's own lock is held\n";
$l = new RedisLock(rl_test_server(0), ['reentrant' => false, 'refresh_own' => false]);
var_dump($l->lock('o804', 5000, 0.0, 'k1'));
$r->cmd('PEXPIRE', 'lock:o804', 3000);
var_dump($l->lock('o804', 60000, 0.0, 'k1'), $r->pttl('lock:o804') <= 3000);       // not refreshed
var_dump($l->lock('o804', 60000, 0.0, 'k2'));
$t0 = microtime(true);
var_dump($l->lock('o804', 60000, 0.3, 'k1'), microtime(true) - $t0 >= 0.25);      // waited its wait out
var_dump($l->unlock('o804', 'k1'), $l->lock('o804', 5000, 0.0, 'k1'));           // free again: taken
echo "-- waiting for its own lock to end\n";
$r->cmd('PEXPIRE', 'lock:o804', 300);
// a wait of 30 s and a TTL of a minute: only a failure waits it out, no busy
// machine makes the fresh TTL look old
var_dump($l->lock('o804', 60000, 30.0, 'k1'), $r->pttl('lock:o804') > 30000);    // taken anew at its end
$l->unlock('o804', 'k1');
echo "-- a fresh token is not affected\n";
$t = $l->lock('o804', 5000);
var_dump(strlen($t), $l->unlock('o804', $t));

echo "-- fencing: a new number, never the owner's twice\n";
$f = new RedisLock(rl_test_server(0), ['reentrant' => false, 'refresh_own' => false, 'fencing' => true]);
var_dump($f->lock('o804-f', 5000, 0.0, 'k1') === 'k1');
$n = $f->fencingToken('o804-f');
var_dump($f->lock('o804-f', 5000, 0.0, 'k1'), $f->lock('o804-f', 5000, 0.2, 'k1'));
var_dump($f->unlock('o804-f', 'k1'), $f->lock('o804-f', 5000, 0.0, 'k1') === 'k1', $f->fencingToken('o804-f') > $n);
$f->unlock('o804-f', 'k1');

echo "-- a re-entrant object does not count the owner's lock again\n";
$re = new RedisLock(rl_test_server(0), ['refresh_own' => false]);
var_dump($re->lock('o804', 5000, 0.0, 'k1'), $re->lock('o804', 5000, 0.0, 'k1'));
var_dump($re->unlock('o804', 'k1'), $r->exists('lock:o804'));

echo "-- the default refreshes\n";
$d = new RedisLock(rl_test_server(0), ['reentrant' => false]);
var_dump($d->lock('o804', 3000, 0.0, 'k1'), $d->lock('o804', 60000, 0.0, 'k1'), $r->pttl('lock:o804') > 50000);
$d->unlock('o804', 'k1');

echo "-- lockMany() counts the token's own locks as taken, in one script or one by one (fencing)\n";
foreach ([[], ['fencing' => true]] as $more) {
    $m = new RedisLock(rl_test_server(0), ['reentrant' => false, 'refresh_own' => false] + $more);
    $d->lock('o804-m', 5000, 0.0, 'k9');
    var_dump($m->lockMany(['o804-m', 'o804-n'], 60000, 0.0, 'k9'), $r->pttl('lock:o804-m') > 50000);
    var_dump($m->unlockMany(['o804-m', 'o804-n'], 'k9'));
}

echo "-- RedLock\n";
$rl = new RedLock(rl_test_servers(3), 200, 3, ['reentrant' => false, 'refresh_own' => false]);
var_dump($rl->lock('o804', 5000, 0.0, 'k1'), $rl->lock('o804', 5000, 0.0, 'k1'), $rl->lock('o804', 5000, 0.3, 'k1'));
var_dump($rl->unlock('o804', 'k1'), $rl->lock('o804', 5000, 0.0, 'k1'), $rl->unlock('o804', 'k1'));

echo "-- a sorted set at the key (Symfony's RedisStore's lock): held\n";
$now = (int) (microtime(true) * 1000);
// a minute: still there through the calls below on a busy machine
$r->cmd('ZADD', 'lock:o804-z', $now + 60000, 'symfony-token', $now + 60000, '__write__');
$r->cmd('PEXPIRE', 'lock:o804-z', 60000);
show(fn () => $d->lock('o804-z', 5000));
show(fn () => $d->lock('o804-z', 5000, 0.2));
show(fn () => $d->lock('o804-z', 5000, 0.0, 'k1'));
show(fn () => $d->lockShared('o804-z', 5000));
show(fn () => $d->lockShared('o804-z', 5000, 0.2));
show(fn () => $d->lockMany(['o804-n', 'o804-z'], 5000));
show(fn () => $d->lockMany(['o804-n', 'o804-z'], 5000, 0.2));
var_dump($r->cmd('ZCARD', 'lock:o804-z'), $d->isLocked('o804-z'), $r->cmd('EXISTS', 'lock:o804-n'));
$r->del('lock:o804-z');
var_dump($d->unlock('o804-z', $d->lock('o804-z', 5000)));

echo "-- a key of another type: an error naming it, the key untouched\n";
$r->cmd('HSET', 'lock:o804-h', 'field', 'value');
show(fn () => $d->lock('o804-h', 5000, 0.2));
show(fn () => $d->lock('o804-h', 5000, 0.0, 'k1'));
show(fn () => $d->lockShared('o804-h', 5000));
// lockMany() in its script (a wait, a caller's token); its one-command
// form (MSETEX NX, Redis 8.6) finds any key there held, as SET NX does
show(fn () => $d->lockMany(['o804-n', 'o804-h'], 5000, 0.2));
show(fn () => $d->lockMany(['o804-n', 'o804-h'], 5000, 0.0, 'k1'));
var_dump($r->cmd('TYPE', 'lock:o804-h'), $r->cmd('HGET', 'lock:o804-h', 'field'), $r->cmd('EXISTS', 'lock:o804-n'));
$r->del('lock:o804-h');

echo "-- bad input\n";
show(fn () => new RedisLock(rl_test_server(0), ['refresh_own' => 'no']));
show(fn () => new RedLock(rl_test_servers(3), 200, 3, ['refresh_own' => 1]));
?>
--EXPECT--
-- the owner's own lock is held
string(2) "k1"
NULL
bool(true)
NULL
NULL
bool(true)
bool(true)
string(2) "k1"
-- waiting for its own lock to end
string(2) "k1"
bool(true)
-- a fresh token is not affected
int(32)
bool(true)
-- fencing: a new number, never the owner's twice
bool(true)
NULL
NULL
bool(true)
bool(true)
bool(true)
-- a re-entrant object does not count the owner's lock again
string(2) "k1"
NULL
bool(true)
int(0)
-- the default refreshes
string(2) "k1"
string(2) "k1"
bool(true)
-- lockMany() counts the token's own locks as taken, in one script or one by one (fencing)
string(2) "k9"
bool(true)
bool(true)
string(2) "k9"
bool(true)
bool(true)
-- RedLock
string(2) "k1"
NULL
NULL
bool(true)
string(2) "k1"
bool(true)
-- a sorted set at the key (Symfony's RedisStore's lock): held
NULL
NULL
NULL
NULL
NULL
NULL
NULL
int(2)
bool(true)
int(0)
bool(true)
-- a key of another type: an error naming it, the key untouched
RedisLockException: Redis node NODE: the resource's key holds a hash, not a lock
RedisLockException: Redis node NODE: the resource's key holds a hash, not a lock
RedisLockException: Redis node NODE: the resource's key holds a hash, not a lock
RedisLockException: Redis node NODE: the resource's key holds a hash, not a lock
RedisLockException: Redis node NODE: the resource's key holds a hash, not a lock
string(4) "hash"
string(5) "value"
int(0)
-- bad input
TypeError: RedisLock::__construct(): Argument #2 ($options) option "refresh_own" must be of type bool, string given
TypeError: RedLock::__construct(): Argument #4 ($options) option "refresh_own" must be of type bool, int given
