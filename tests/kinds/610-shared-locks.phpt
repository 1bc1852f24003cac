--TEST--
Shared locks (RedisLock): shared holders together, a lock() never with them; unlock/extend/re-entrancy/auto-release with shared tokens; an exclusive holder's lockShared() is a re-entry; the exclusive fast path stays one SET; mixed kinds and bad input are clear errors or false
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$skey = rl_derived_key('lock:s610', 's');
$r->del('lock:s610', $skey);
$a = new RedisLock(rl_test_server(0));
$b = new RedisLock(rl_test_server(0));
$w = new RedisLock(rl_test_server(0));

echo "-- shared holders together, no lock() meanwhile\n";
$ta = $a->lockShared('s610', 5000);
$tb = $b->lockShared('s610', 2000);
var_dump(is_string($ta), is_string($tb), $ta !== $tb, $w->lock('s610', 5000), $w->acquireLock('s610', 5));
var_dump($r->cmd('ZCARD', $skey), $r->pttl('lock:s610') > 4000, rl_key_slot($skey) === rl_key_slot('lock:s610'));
echo "-- extend and re-entry of a shared token\n";
var_dump($b->extend('s610', $tb, 9000), $r->pttl('lock:s610') > 8000);
var_dump($a->lockShared('s610', 5000) === $ta);          // re-entrant: counted
var_dump($a->unlock('s610', $ta), $r->cmd('ZCARD', $skey)); // still held once by a
var_dump($a->unlock('s610', $ta), $r->cmd('ZCARD', $skey)); // now gone
var_dump($a->unlock('s610', $ta), $a->extend('s610', $ta, 1000)); // not held any more: false
echo "-- the last shared holder's release frees it; lock() gets it\n";
var_dump($b->unlock('s610', $tb), $r->exists('lock:s610', $skey));
$tw = $w->lock('s610', 5000);
var_dump(is_string($tw), $r->get('lock:s610') === $tw, $a->lockShared('s610', 1000));
echo "-- an exclusive holder's lockShared() is a re-entry of its lock\n";
var_dump($w->lockShared('s610', 5000) === $tw);
var_dump($w->unlock('s610', $tw), $r->get('lock:s610') === $tw, $w->unlock('s610', $tw), $r->exists('lock:s610'));
echo "-- a shared holder's lock() would wait for itself: refused\n";
$ta = $a->lockShared('s610', 5000);
try { $a->lock('s610', 1000); } catch (RedisLockException $e) { echo get_class($e), ' (', $e->getCode(), '): ', $e->getMessage(), "\n"; }
echo "-- expired shared holders do not count\n";
$tb = $b->lockShared('s610', 100);
usleep(150000);
var_dump($b->unlock('s610', $tb), $r->cmd('ZCARD', $skey));   // expired: false, dropped
echo "-- auto-release at destruction\n";
unset($a);
var_dump($r->exists('lock:s610', $skey));
echo "-- the exclusive fast path is still one SET (no shared holder)\n";
$before = $r->info('commandstats');
$t = $w->lock('s610', 5000);
$w->unlock('s610', $t);
$after = $r->info('commandstats');
$calls = fn($info, $c) => (int)substr(explode(',', $info["cmdstat_$c"] ?? 'calls=0')[0], 6);   // "calls=N,usec=..." (no regex: PCRE JIT is noise under valgrind)
// the release: the script, or the server's own compare-and-delete where it has one (Redis 8.4+, Valkey 9)
$release = fn($info) => $calls($info, 'evalsha') + $calls($info, 'delex') + $calls($info, 'delifeq');
var_dump($calls($after, 'set') - $calls($before, 'set'), $release($after) - $release($before));
echo "-- mixed kinds: a shared token on another resource, a lock token as a shared one\n";
$a = new RedisLock(rl_test_server(0));
$ta = $a->lockShared('s610', 5000);
var_dump($a->unlock('s610-other', $ta), $w->unlock('s610', ($ta[0] === 'f' ? 'e' : 'f') . substr($ta, 1)), $r->cmd('ZCARD', $skey));
$a->unlock('s610', $ta);
echo "-- bad input\n";
foreach ([['', 1000], ['s610', 0], ['s610', -5]] as [$res, $ttl]) {
    try { $a->lockShared($res, $ttl); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
}
try { $a->lockShared('s610', 1000, -1.0); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
var_dump(RedisLock::stats()['acquired_shared'] >= 5);
$r->del('lock:s610', $skey);
?>
--EXPECT--
-- shared holders together, no lock() meanwhile
bool(true)
bool(true)
bool(true)
NULL
bool(false)
int(2)
bool(true)
bool(true)
-- extend and re-entry of a shared token
bool(true)
bool(true)
bool(true)
bool(true)
int(2)
bool(true)
int(1)
bool(false)
bool(false)
-- the last shared holder's release frees it; lock() gets it
bool(true)
int(0)
bool(true)
bool(true)
NULL
-- an exclusive holder's lockShared() is a re-entry of its lock
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
-- a shared holder's lock() would wait for itself: refused
RedisLockException (17): "lock:s610" is held by this object as a shared lock, not as a lock: release it first
-- expired shared holders do not count
bool(false)
int(1)
-- auto-release at destruction
int(0)
-- the exclusive fast path is still one SET (no shared holder)
int(1)
int(1)
-- mixed kinds: a shared token on another resource, a lock token as a shared one
bool(false)
bool(false)
int(1)
-- bad input
RedisLock::lockShared(): Argument #1 ($resource) must not be empty
RedisLock::lockShared(): Argument #2 ($ttl) must be between 1 and 4398046511104
RedisLock::lockShared(): Argument #2 ($ttl) must be between 1 and 4398046511104
RedisLock::lockShared(): Argument #3 ($wait) must be between 0 and 86400 seconds
bool(true)
