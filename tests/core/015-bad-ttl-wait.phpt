--TEST--
timeout/ttl <= 0, a negative wait and an empty token are ValueErrors naming the argument
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

function attempt(string $what, callable $f): void
{
    try {
        $r = $f();
        echo "$what: returned ", var_export($r, true), "\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t015');
$lock = new RedisLock(rl_test_server(0));

attempt('acquireLock 0', fn() => $lock->acquireLock('t015', 0));
attempt('acquireLock -1', fn() => $lock->acquireLock('t015', -1));
attempt('acquireLock min', fn() => $lock->acquireLock('t015', PHP_INT_MIN));
attempt('lock 0', fn() => $lock->lock('t015', 0));
attempt('lock -1', fn() => $lock->lock('t015', -1));
attempt('lock min', fn() => $lock->lock('t015', PHP_INT_MIN));
attempt('lock wait -1', fn() => $lock->lock('t015', 1000, -1));
attempt('lock wait -0.001', fn() => $lock->lock('t015', 1000, -0.001));
attempt('lock wait NAN', fn() => $lock->lock('t015', 1000, NAN));
attempt('extend 0', fn() => $lock->extend('t015', 'abc', 0));
attempt('extend -1', fn() => $lock->extend('t015', 'abc', -1));
attempt('unlock empty token', fn() => $lock->unlock('t015', ''));
attempt('extend empty token', fn() => $lock->extend('t015', '', 1000));
// Wrong scalar types follow the usual coercion rules.
attempt('lock "abc"', fn() => $lock->lock('t015', 'abc'));

// None of these took the lock.
var_dump($r->exists('lock:t015'));

// A wait of 0 is allowed (one try), as are the smallest TTLs. A 1 ms lock is
// returned only when its reply came within that millisecond (a later grant is
// taken back: test 072), so either is an answer here; an exception is not.
$t = $lock->lock('t015', 1, 0.0);
var_dump(is_string($t) || $t === null);
var_dump(rl_wait_until(fn() => $r->exists('lock:t015') === 0, 10.0));
var_dump($lock->acquireLock('t015', 1));
var_dump($lock->releaseLock('t015'));
var_dump($r->exists('lock:t015'));
?>
--EXPECT--
acquireLock 0: ValueError: RedisLock::acquireLock(): Argument #2 ($timeout) must be between 1 and 4398046511
acquireLock -1: ValueError: RedisLock::acquireLock(): Argument #2 ($timeout) must be between 1 and 4398046511
acquireLock min: ValueError: RedisLock::acquireLock(): Argument #2 ($timeout) must be between 1 and 4398046511
lock 0: ValueError: RedisLock::lock(): Argument #2 ($ttl) must be between 1 and 4398046511104
lock -1: ValueError: RedisLock::lock(): Argument #2 ($ttl) must be between 1 and 4398046511104
lock min: ValueError: RedisLock::lock(): Argument #2 ($ttl) must be between 1 and 4398046511104
lock wait -1: ValueError: RedisLock::lock(): Argument #3 ($wait) must be between 0 and 86400 seconds
lock wait -0.001: ValueError: RedisLock::lock(): Argument #3 ($wait) must be between 0 and 86400 seconds
lock wait NAN: ValueError: RedisLock::lock(): Argument #3 ($wait) must be between 0 and 86400 seconds
extend 0: ValueError: RedisLock::extend(): Argument #3 ($ttl) must be between 1 and 4398046511104
extend -1: ValueError: RedisLock::extend(): Argument #3 ($ttl) must be between 1 and 4398046511104
unlock empty token: ValueError: RedisLock::unlock(): Argument #2 ($token) must not be empty
extend empty token: ValueError: RedisLock::extend(): Argument #2 ($token) must not be empty
lock "abc": TypeError: RedisLock::lock(): Argument #2 ($ttl) must be of type int, string given
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
