--TEST--
What framework stores need: lock() with a caller-named token (an owner, restored by another object or process), holds() asked of Redis (a quorum for RedLock), forceUnlock() that releases whoever holds it and wakes the next waiter; bad tokens refused
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/../timing.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:o800', 'lock:o800-s', 'lock:o800-p');
$a = new RedisLock(rl_test_server(0));
$b = new RedisLock(rl_test_server(0));

echo "-- an owner names the token\n";
var_dump($a->lock('o800', 5000, 0.0, 'owner-1'), $r->get('lock:o800'));
var_dump($b->lock('o800', 5000, 0.0, 'owner-2'));                  // held by owner-1
var_dump($a->lock('o800', 5000, 0.0, 'owner-1'));                  // the same owner, same object: a re-entry
var_dump($a->lock('o800', 5000, 0.0, 'owner-2'));                  // another owner, same object: held
var_dump($b->holds('o800', 'owner-1'), $b->holds('o800', 'owner-2'));
// the owner's name is the owner: another object naming it has the lock, refreshed, waiting or not
var_dump($b->lock('o800', 60000, 0.0, 'owner-1'), $r->pttl('lock:o800') > 50000);
var_dump($b->lock('o800', 90000, 1.0, 'owner-1'), $r->pttl('lock:o800') > 80000);   // b's re-entry
var_dump($b->unlock('o800', 'owner-1'), $r->exists('lock:o800'));                  // counted down: still held
// restored elsewhere (Laravel's restoreLock(), a queued job): released by the owner's name
$c = new RedisLock(rl_test_server(0));
var_dump($c->unlock('o800', 'owner-1'), $r->exists('lock:o800'));
var_dump($c->holds('o800', 'owner-1'));
echo "-- waiting with an owner\n";
$t = $a->lock('o800', 200);
var_dump($b->lock('o800', 5000, 2.0, 'owner-3'), $b->holds('o800', 'owner-3'));
$b->unlock('o800', 'owner-3');

echo "-- holds() of every kind\n";
$s = $a->lockShared('o800-s', 5000);
$p = $a->acquirePermit('o800-p', 2, 5000);
var_dump($b->holds('o800-s', $s), $b->holds('o800-p', $p), $b->holds('o800-s', $p), $b->holds('o800-p', $s));
$short = $b->lockShared('o800-s', 50);
usleep(100000);
var_dump($b->holds('o800-s', $short));                            // expired: no

echo "-- forceUnlock()\n";
var_dump($b->forceUnlock('o800-s'), $r->exists('lock:o800-s', rl_derived_key('lock:o800-s', 's')));
var_dump($b->forceUnlock('o800-p'), $r->exists('lock:o800-p'));
var_dump($b->forceUnlock('o800'));                                // nobody holds it
// a's shared lock went with it: a learns it when it asks Redis (isHeld() is what a knows)
var_dump($a->isHeld('o800-s'), $a->holds('o800-s', $s), $a->unlock('o800-s', $s));
// a waiter is woken by it: its stats() say so (counts, not an elapsed time
// under the TTL, which a busy machine bends); forceUnlock() comes once it is
// seen blocked in XREAD; a round that met its 2 s recheck as the lock went
// is run again (at most 3, logged)
$srv = new RlTestRedis(rl_test_server(0));
$forced = [];
$seen = rl_timing_until_woken('o800', function () use ($a, $b, $r, $srv, &$t, &$forced) {
    $t = $a->lock('o800', 60000);
    $child = rl_woken_waiter('new RedisLock(' . var_export(rl_test_server(0), true) . ')', '
        $t = $l->lock("o800", 5000, 30.0);
        $got = $t ? "got" : "none";
        $l->unlock("o800", $t);');
    rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key('lock:o800', 'q')) === 1, 30.0);
    rl_timing_blocked($srv, 'o800');
    $forced[] = $b->forceUnlock('o800');
    return rl_timing_counts($child, 60.0);
});
var_dump(!in_array(false, $forced, true));
echo "waiter: ", $seen['got'] ?? 'nothing', ", woken by forceUnlock(): ", var_export(rl_timing_woken($seen), true),
    rl_timing_woken($seen) ? '' : ' ' . json_encode($seen), "\n";
var_dump($a->holds('o800', $t), $a->unlock('o800', $t));

echo "-- RedLock: a quorum answers\n";
$nodes = rl_test_servers(3);
$rl = new RedLock($nodes, 10, 1);
$t = $rl->lock('o800', 5000, null, 'owner-r');
var_dump($t, $rl->holds('o800', 'owner-r'));
(new RlTestRedis(rl_test_server(0)))->del('lock:o800');
(new RlTestRedis(rl_test_server(1)))->del('lock:o800');                      // a majority lost it
var_dump($rl->holds('o800', 'owner-r'), $rl->forceUnlock('o800'));   // one node had it: not a quorum
var_dump((new RlTestRedis(rl_test_server(2)))->exists('lock:o800'));         // ... but deleted there too

echo "-- bad tokens\n";
foreach (['', str_repeat('x', 257), "a\0b"] as $bad) {
    try { $a->lock('o800', 1000, 0.0, $bad); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
}
try { $rl->lock('o800', 1000, null, ''); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { $a->holds('o800', ''); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
// no token holds a NUL (the shared-lock mark starts with one)
foreach (['unlock', 'holds'] as $m) {
    try { $a->$m('o800', "\0shared"); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
}
try { $a->extend('o800', "\0shared", 1000); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { $a->forceUnlock(''); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
var_dump(strlen($a->lock('o800-max', 1000, 0.0, str_repeat('y', 256))));
?>
--EXPECT--
-- an owner names the token
string(7) "owner-1"
string(7) "owner-1"
NULL
string(7) "owner-1"
NULL
bool(true)
bool(false)
string(7) "owner-1"
bool(true)
string(7) "owner-1"
bool(true)
bool(true)
int(1)
bool(true)
int(0)
bool(false)
-- waiting with an owner
string(7) "owner-3"
bool(true)
-- holds() of every kind
bool(true)
bool(true)
bool(false)
bool(false)
bool(false)
-- forceUnlock()
bool(true)
int(0)
bool(true)
int(0)
bool(false)
bool(true)
bool(false)
bool(false)
bool(true)
waiter: got, woken by forceUnlock(): true
bool(false)
bool(false)
-- RedLock: a quorum answers
string(7) "owner-r"
bool(true)
bool(false)
bool(false)
int(0)
-- bad tokens
RedisLock::lock(): Argument #4 ($token) must be null or between 1 and 256 bytes
RedisLock::lock(): Argument #4 ($token) must be null or between 1 and 256 bytes
RedisLock::lock(): Argument #4 ($token) must not contain NUL bytes
RedLock::lock(): Argument #4 ($token) must be null or between 1 and 256 bytes
RedisLock::holds(): Argument #2 ($token) must not be empty
RedisLock::unlock(): Argument #2 ($token) must not contain NUL bytes
RedisLock::holds(): Argument #2 ($token) must not contain NUL bytes
RedisLock::extend(): Argument #2 ($token) must not contain NUL bytes
RedisLock::forceUnlock(): Argument #1 ($resource) must not be empty
int(256)
