--TEST--
Semaphores (RedisLock::acquirePermit): at most $limit holders, each permit with its own TTL; unlock()/extend()/re-entrancy/auto-release; a release wakes one waiter; a SIGKILLed holder's permit frees after its TTL; mixed kinds are held, clear errors or false, bad input clear errors
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:p620', 'lock:p620-lock');
$objs = [];
$tokens = [];
for ($i = 0; $i < 4; $i++) {
    $objs[$i] = new RedisLock(rl_test_server(0));
    $tokens[$i] = $objs[$i]->acquirePermit('p620', 3, 60000);
}
echo "-- 3 of 4 had a permit\n";
var_dump(array_map(fn($t) => is_string($t), $tokens), $r->cmd('ZCARD', 'lock:p620'), $r->pttl('lock:p620') > 50000);
echo "-- re-entry counts, extend, unlock\n";
var_dump($objs[0]->acquirePermit('p620', 3, 60000) === $tokens[0], $r->cmd('ZCARD', 'lock:p620'));
var_dump($objs[1]->extend('p620', $tokens[1], 90000), $r->pttl('lock:p620') > 80000);
var_dump($objs[0]->unlock('p620', $tokens[0]), $objs[0]->unlock('p620', $tokens[0]), $r->cmd('ZCARD', 'lock:p620'));
var_dump(is_string($tokens[3] = $objs[3]->acquirePermit('p620', 3, 60000)));
// long TTLs: under valgrind the waiters take seconds to start, and no permit may expire meanwhile
echo "-- a release wakes one waiter\n";
$waitCode = <<<'PHP'
[, $server] = $argv;
$l = new RedisLock($server);
$t = $l->acquirePermit('p620', 3, 5000, 30.0);
echo $t === null ? "none\n" : "got\n";
// holds its permit until the test says (a sleep here was a bet on the load)
$r = new RlTestRedis($server);
if ($t) { rl_wait_until(fn() => $r->exists('p620-go') === 1, 60.0); $l->unlock('p620', $t); }
PHP;
$waiters = [];
for ($i = 0; $i < 2; $i++) {
    $waiters[] = rl_php_child_start('$argv = ' . var_export(['-', rl_test_server(0)], true) . ';' . $waitCode);
}
rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key('lock:p620', 'q')) === 2, 30.0);
$objs[1]->unlock('p620', $tokens[1]);
$one = rl_wait_until(fn() => count(array_filter($waiters, fn($c) => str_contains($c->output(), 'got'))) >= 1, 30.0);
// the one that got it holds it: the other is still queued, whenever this looks
echo "one woken, one still waiting: ", var_export($one && count(array_filter($waiters, fn($c) => str_contains($c->output(), 'got'))) === 1
    && $r->cmd('LLEN', rl_derived_key('lock:p620', 'q')) === 1, true), "\n";
$r->set('p620-go', '1');
$objs[2]->unlock('p620', $tokens[2]);
foreach ($waiters as $c) { [$exit, $out] = $c->wait(30); echo trim($out), "\n"; }
$objs[3]->unlock('p620', $tokens[3]);
$r->del('p620-go');
var_dump($r->exists('lock:p620'));

echo "-- a SIGKILLed holder's permit frees after its TTL\n";
// a TTL of seconds: still held when this asks first, on a busy machine too
$child = rl_php_child_start('$l = new RedisLock(' . var_export(rl_test_server(0), true) . '); '
    . 'echo $l->acquirePermit("p620", 1, ' . (rl_under_valgrind() ? 20000 : 4000) . ') ? "holding\n" : "none\n"; sleep(60);');
rl_wait_until(fn() => str_contains($child->output(), 'holding'), 30.0);
$child->signal(SIGKILL);
$child->wait(10);
$l = new RedisLock(rl_test_server(0));
var_dump($l->acquirePermit('p620', 1, 1000));
// freed by its TTL, found by the waiter's own look (not woken: nobody
// released it); when it looks (at the TTL's end) unit_wait.c times on a
// clock of its own: an elapsed time here was a bet on the load
$before = RedisLock::stats();
$t = $l->acquirePermit('p620', 1, 1000, 30.0);
$after = RedisLock::stats();
var_dump(is_string($t), $after['waits_woken'] === $before['waits_woken'] && $after['waits_rechecked'] > $before['waits_rechecked']);
$l->unlock('p620', $t);

echo "-- auto-release\n";
$x = new RedisLock(rl_test_server(0));
$x->acquirePermit('p620', 2, 5000);
unset($x);
var_dump($r->exists('lock:p620'));

echo "-- mixed kinds\n";
$p = $l->acquirePermit('p620', 2, 5000);
$k = new RedisLock(rl_test_server(0));
var_dump($k->unlock('p620-lock', $p), $k->extend('p620-lock', $p, 1000));        // a permit token on another resource
var_dump($k->lock('p620', 1000, 0.5), $k->lockShared('p620', 1000));              // held: a semaphore's key is taken
var_dump($k->lock('p620', 1000));                                                  // the fast path: the key is taken
$lt = $k->lock('p620-lock', 5000);
try { $l->acquirePermit('p620-lock', 2, 1000); } catch (RedisLockException $e) { echo $e->getCode(), ': ', str_replace(rl_test_server(0), 'NODE', $e->getMessage()), "\n"; }
try { $k->acquirePermit('p620-lock', 2, 1000); } catch (RedisLockException $e) { echo $e->getCode(), ': ', $e->getMessage(), "\n"; }
var_dump($l->unlock('p620-lock', $p), $r->get('lock:p620-lock') === $lt, $r->cmd('ZCARD', 'lock:p620'));
$k->unlock('p620-lock', $lt);
$l->unlock('p620', $p);

echo "-- logger events name the kind\n";
$events = [];
$logged = new RedisLock(rl_test_server(0), ['logger' => function (string $level, string $message) use (&$events) { $events[] = "$level $message"; }]);
$logged->unlock('p620', $logged->acquirePermit('p620', 2, 1000));
$logged->unlock('p620-s', $logged->lockShared('p620-s', 1000));
$logged->unlock('p620-l', $logged->lock('p620-l', 1000));
echo implode("\n", $events), "\n";

echo "-- bad input\n";
foreach ([['', 1, 1000], ['p620', 0, 1000], ['p620', -1, 1000], ['p620', 1000001, 1000], ['p620', 2, 0]] as [$res, $limit, $ttl]) {
    try { $l->acquirePermit($res, $limit, $ttl); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
}
try { $l->acquirePermit('p620', 2, 1000, -1.0); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
var_dump(method_exists('RedLock', 'acquirePermit'), RedisLock::stats()['acquired_permits'], RedisLock::stats()['acquired_shared']);
?>
--EXPECT--
-- 3 of 4 had a permit
array(4) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
  [2]=>
  bool(true)
  [3]=>
  bool(false)
}
int(3)
bool(true)
-- re-entry counts, extend, unlock
bool(true)
int(3)
bool(true)
bool(true)
bool(true)
bool(true)
int(2)
bool(true)
-- a release wakes one waiter
one woken, one still waiting: true
got
got
int(0)
-- a SIGKILLed holder's permit frees after its TTL
NULL
bool(true)
bool(true)
-- auto-release
int(0)
-- mixed kinds
bool(false)
bool(false)
NULL
NULL
NULL
6: Redis node NODE: the resource is a lock, not a semaphore
17: "lock:p620-lock" is held by this object as a lock, not as a permit: release it first
bool(false)
bool(true)
int(1)
-- logger events name the kind
info redislock: acquired_permit p620
info redislock: released p620
info redislock: acquired_shared p620-s
info redislock: released p620-s
info redislock: acquired p620-l
info redislock: released p620-l
-- bad input
RedisLock::acquirePermit(): Argument #1 ($resource) must not be empty
RedisLock::acquirePermit(): Argument #2 ($limit) must be between 1 and 1000000
RedisLock::acquirePermit(): Argument #2 ($limit) must be between 1 and 1000000
RedisLock::acquirePermit(): Argument #2 ($limit) must be between 1 and 1000000
RedisLock::acquirePermit(): Argument #3 ($ttl) must be between 1 and 4398046511104
RedisLock::acquirePermit(): Argument #4 ($wait) must be between 0 and 86400 seconds
bool(false)
int(8)
int(1)
