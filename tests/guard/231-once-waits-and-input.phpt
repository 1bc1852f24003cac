--TEST--
once(): a waiter not woken returns ONCE_TIMED_OUT at its wait limit, and with wait 0 at once (stale-while-revalidate); the rebuild gets the token and may extend(); re-entrant inside a lock this object holds (no broadcast then: the outer hold goes on); a plain lock() waiter woken by the done release takes the lock; $rebuild's exception reaches the caller with the lock released; bad arguments are errors naming the argument
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/../timing.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:g231', 'lock:g231b', 'lock:g231c');
$names = [RedisLock::ONCE_TIMED_OUT => 'timed out', RedisLock::ONCE_RAN => 'ran', RedisLock::ONCE_WAITED => 'waited'];
var_dump(RedisLock::ONCE_TIMED_OUT, RedisLock::ONCE_RAN, RedisLock::ONCE_WAITED, RedLock::ONCE_WAITED);

echo "-- not woken in time\n";
$holder = new RedisLock(rl_test_server(0));
$t = $holder->lock('g231', 30000);                  // a rebuild that goes on
$l = new RedisLock(rl_test_server(0));
$ran = false;
$t0 = microtime(true);
echo "wait 0.3: ", $names[$l->once('g231', function () use (&$ran) { $ran = true; }, 10000, 0.3)], "\n";
$waited = microtime(true) - $t0;
echo "returned at the limit: ", $waited >= 0.29 ? 'yes' : "no ($waited s)", "\n";
echo "wait 0: ", $names[$l->once('g231', function () use (&$ran) { $ran = true; }, 10000, 0.0)], "\n";
var_dump($ran, $r->cmd('LLEN', rl_derived_key('lock:g231', 'q')));   // nothing ran, nobody left queued
$holder->unlock('g231', $t);

echo "-- the rebuild holds the lock, with its token\n";
echo $names[$l->once('g231', function (string $token) use ($l, $r) {
    var_dump($r->get('lock:g231') === $token, $l->isHeld('g231'), $l->extend('g231', $token, 20000), $r->pttl('lock:g231') > 15000);
})], "\n";
var_dump($r->exists('lock:g231'), $l->isHeld('g231'));

echo "-- re-entrant\n";
$t = $l->lock('g231', 30000);
echo $names[$l->once('g231', function (string $token) use ($t) { var_dump($token === $t); })], "\n";
var_dump($r->get('lock:g231') === $t, $l->isHeld('g231'));         // the outer hold goes on
echo $names[$l->once('g231', fn() => $l->once('g231', fn() => print("inner\n")) === RedisLock::ONCE_RAN ? null : print("NO\n"))], "\n";
var_dump($l->unlock('g231', $t), $r->exists('lock:g231'));

echo "-- a plain waiter beside the guard\n";
// the done release wakes it: its stats() say so (woken, not its own recheck;
// counts, not a wait limit under the 2 s recheck, which a busy machine may
// outlast); a round that met its recheck as the guard let go is run again
$shown = '';
$seen = rl_timing_until_woken('g231b', function () use ($l, $r, $names, &$shown) {
    $child = null;
    $shown = '';
    $shown .= $names[$l->once('g231b', function () use ($r, &$child, &$shown) {
        $child = rl_woken_waiter('new RedisLock(rl_test_server(0))', '
            $t = $l->lock("g231b", 30000, 30.0);
            $got = is_string($t) ? "the plain waiter took the lock" : "NO";
            $l->unlock("g231b", $t);');
        $shown .= "queued: " . var_export(rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key('lock:g231b', 'q')) === 1, rl_under_valgrind() ? 100 : 30), true) . "\n";
        rl_timing_blocked($r, 'g231b');
    })] . "\n";
    $seen = rl_timing_counts($child, 60.0, $said);
    $shown .= $seen === null ? "$said\n" : '';
    return $seen;
});
echo $seen === null ? $shown : "$shown{$seen['got']}, woken by the done release: " . var_export(rl_timing_woken($seen), true)
    . (rl_timing_woken($seen) ? '' : ' ' . json_encode($seen)) . "\n";

echo "-- option reentrant false: once() inside its own once() runs at once\n";
$n = new RedisLock(rl_test_server(0), ['reentrant' => false]);
$before = RedisLock::stats();
echo $names[$n->once('g231c', fn() => print($names[$n->once('g231c', fn() => print("inner\n"), 10000, 3.0)] . "\n"), 10000, 3.0)], "\n";
$after = RedisLock::stats();
echo "without waiting for itself (no wait counted): ",
    $after['waits_woken'] + $after['waits_rechecked'] === $before['waits_woken'] + $before['waits_rechecked'] ? 'yes' : 'NO', "\n";

echo "-- exit() in the rebuild\n";
[$exit, $out, $err] = rl_php_child('$l = new RedisLock(rl_test_server(0)); $l->once("g231d", function () { echo "exiting\n"; exit(3); }); echo "NO\n";');
echo trim($out), ", exit code $exit", $err, "\n";
var_dump($r->exists('lock:g231d'));

echo "-- the rebuild throws\n";
try {
    $l->once('g231c', function () { throw new DomainException('cannot rebuild'); });
} catch (DomainException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($r->exists('lock:g231c'), $l->isHeld('g231c'));

echo "-- bad input\n";
foreach ([
    fn() => $l->once('', fn() => null),
    fn() => $l->once('g231', fn() => null, 0),
    fn() => $l->once('g231', fn() => null, 1000, -1.0),
    fn() => $l->once('g231', fn() => null, 1000, 90000.0),
    fn() => $l->once('g231', 'no_such_function'),
] as $bad) {
    try {
        $bad();
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
int(0)
int(1)
int(2)
int(2)
-- not woken in time
wait 0.3: timed out
returned at the limit: yes
wait 0: timed out
bool(false)
int(0)
-- the rebuild holds the lock, with its token
bool(true)
bool(true)
bool(true)
bool(true)
ran
int(0)
bool(false)
-- re-entrant
bool(true)
ran
bool(true)
bool(true)
inner
ran
bool(true)
int(0)
-- a plain waiter beside the guard
queued: true
ran
the plain waiter took the lock, woken by the done release: true
-- option reentrant false: once() inside its own once() runs at once
inner
ran
ran
without waiting for itself (no wait counted): yes
-- exit() in the rebuild
exiting, exit code 3
int(0)
-- the rebuild throws
DomainException: cannot rebuild
int(0)
bool(false)
-- bad input
ValueError: RedisLock::once(): Argument #1 ($resource) must not be empty
ValueError: RedisLock::once(): Argument #3 ($ttl) must be between 1 and 4398046511104
ValueError: RedisLock::once(): Argument #4 ($wait) must be between 0 and 86400 seconds
ValueError: RedisLock::once(): Argument #4 ($wait) must be between 0 and 86400 seconds
TypeError: RedisLock::once(): Argument #2 ($rebuild) must be a valid callback, function "no_such_function" not found or invalid function name
