--TEST--
An empty resource is a ValueError naming $resource, for every method
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

$lock = new RedisLock(rl_test_server(0));
$bare = new RedisLock(rl_test_server(0), ['prefix' => '']);
foreach ([$lock, $bare] as $l) {
    attempt('acquireLock', fn() => $l->acquireLock(''));
    attempt('acquireLock', fn() => $l->acquireLock('', 5));
    attempt('releaseLock', fn() => $l->releaseLock(''));
    attempt('lock', fn() => $l->lock('', 1000));
    attempt('lock', fn() => $l->lock('', 1000, 0.5));
    attempt('unlock', fn() => $l->unlock('', 'abc'));
    attempt('extend', fn() => $l->extend('', 'abc', 1000));
}

// Nothing reached Redis.
$r = new RlTestRedis(rl_test_server(0));
var_dump($r->exists('lock:'));
?>
--EXPECT--
acquireLock: ValueError: RedisLock::acquireLock(): Argument #1 ($resource) must not be empty
acquireLock: ValueError: RedisLock::acquireLock(): Argument #1 ($resource) must not be empty
releaseLock: ValueError: RedisLock::releaseLock(): Argument #1 ($resource) must not be empty
lock: ValueError: RedisLock::lock(): Argument #1 ($resource) must not be empty
lock: ValueError: RedisLock::lock(): Argument #1 ($resource) must not be empty
unlock: ValueError: RedisLock::unlock(): Argument #1 ($resource) must not be empty
extend: ValueError: RedisLock::extend(): Argument #1 ($resource) must not be empty
acquireLock: ValueError: RedisLock::acquireLock(): Argument #1 ($resource) must not be empty
acquireLock: ValueError: RedisLock::acquireLock(): Argument #1 ($resource) must not be empty
releaseLock: ValueError: RedisLock::releaseLock(): Argument #1 ($resource) must not be empty
lock: ValueError: RedisLock::lock(): Argument #1 ($resource) must not be empty
lock: ValueError: RedisLock::lock(): Argument #1 ($resource) must not be empty
unlock: ValueError: RedisLock::unlock(): Argument #1 ($resource) must not be empty
extend: ValueError: RedisLock::extend(): Argument #1 ($resource) must not be empty
int(0)
