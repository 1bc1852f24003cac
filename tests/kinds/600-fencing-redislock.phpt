--TEST--
Fencing (RedisLock): every acquisition gets a number larger than every earlier one's, also through waiting, re-entrancy, synchronized() and a flushed script cache; the counter lives in the lock key's slot without a TTL; bad input
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$fkey = rl_derived_key('lock:f600', 'f');
$r->del('lock:f600', $fkey);

$a = new RedisLock(rl_test_server(0), ['fencing' => true]);
$b = new RedisLock(rl_test_server(0), ['fencing' => true]);

// first acquisition: 1; the counter has no TTL and sits in the lock's slot
$t = $a->lock('f600', 5000);
$f1 = $a->fencingToken('f600');
var_dump($f1, $r->get($fkey), $r->pttl($fkey), rl_key_slot($fkey) === rl_key_slot('lock:f600'));
// re-entrant: the same acquisition, the same number
var_dump($a->lock('f600', 5000) === $t, $a->fencingToken('f600') === $f1);
var_dump($a->unlock('f600', $t), $a->fencingToken('f600'));   // still held once
var_dump($a->unlock('f600', $t), $a->fencingToken('f600'));   // released: null
var_dump($b->fencingToken('f600'));                            // another object never held it

// every later acquisition is larger: plain, acquireLock(), synchronized()
$t = $b->lock('f600', 5000);
$f2 = $b->fencingToken('f600');
$b->unlock('f600', $t);
$a->acquireLock('f600', 5);
$f3 = $a->fencingToken('f600');
$a->releaseLock('f600');
$f4 = $b->synchronized('f600', fn($tok) => $b->fencingToken('f600'));
var_dump([$f2, $f3, $f4]);

// through waiting (the acquire-or-queue script): b waits for a's lock to
// run out (a wait of 30 s: only a failure waits it out, a busy machine may
// take long to get there)
$t = $a->lock('f600', 300);
$fa = $a->fencingToken('f600');
$tb = $b->lock('f600', 5000, 30.0);
var_dump(is_string($tb), $b->fencingToken('f600') === $fa + 1, $a->fencingToken('f600'));
$b->unlock('f600', $tb);

// after SCRIPT FLUSH (NOSCRIPT: sent again as EVAL)
$r->scriptFlush();
$t = $a->lock('f600', 5000);
var_dump($a->fencingToken('f600') === $fa + 2);
$a->unlock('f600', $t);

// a counter moved on by someone else: the next number is above it
$r->set($fkey, '1000');
$t = $a->lock('f600', 5000);
var_dump($a->fencingToken('f600'));
$a->unlock('f600', $t);

// a lock whose TTL ran out has no number
$t = $a->lock('f600', 50);
usleep(120000);
var_dump($a->fencingToken('f600'));

// a counter that is not a number: an error naming the node, nothing taken
$r->set($fkey, 'not-a-number');
try {
    $a->lock('f600', 5000);
} catch (RedisLockException $e) {
    echo get_class($e), ': ', str_replace(rl_test_server(0), 'NODE', $e->getMessage()), "\n";
}
var_dump($r->exists('lock:f600'), $r->get($fkey));

// without the option: no number, no counter
$r->del($fkey);
$plain = new RedisLock(rl_test_server(0));
$t = $plain->lock('f600', 5000);
var_dump($plain->fencingToken('f600'), $r->exists($fkey));
$plain->unlock('f600', $t);

// bad input
try { $a->fencingToken(''); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { new RedisLock(rl_test_server(0), ['fencing' => 1]); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
$r->del('lock:f600', $fkey);
?>
--EXPECTF--
int(1)
string(1) "1"
int(-1)
bool(true)
bool(true)
bool(true)
bool(true)
int(1)
bool(true)
NULL
NULL
array(3) {
  [0]=>
  int(2)
  [1]=>
  int(3)
  [2]=>
  int(4)
}
bool(true)
bool(true)
NULL
bool(true)
int(1001)
NULL
RedisLockException: Redis node NODE: ERR value is not an integer or out of range%s
int(0)
string(12) "not-a-number"
NULL
int(0)
RedisLock::fencingToken(): Argument #1 ($resource) must not be empty
RedisLock::__construct(): Argument #2 ($options) option "fencing" must be of type bool, int given
