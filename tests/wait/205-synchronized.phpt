--TEST--
synchronized(): returns the callback's value, gives it the token, releases when it throws, RedisLockTimeoutException when not had in time
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
foreach ([new RedisLock(rl_test_server(0)), new RedLock(rl_test_servers(3))] as $lock) {
    echo get_class($lock), "\n";
    $seen = null;
    var_dump($lock->synchronized('rl205', function (string $token) use ($r, &$seen) {
        $seen = $r->get('lock:rl205') === $token ? 'held, with our token' : 'not held';
        return ['answer' => 42];
    }));
    echo "inside: $seen\n";
    echo "after: ", $r->exists('lock:rl205'), "\n";
    try {
        $lock->synchronized('rl205', function () { throw new DomainException('callback failed'); });
    } catch (DomainException $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    echo "released after the throw: ", $r->exists('lock:rl205') ? 'no' : 'yes', "\n";

    $other = $lock instanceof RedLock ? new RedLock(rl_test_servers(3)) : new RedisLock(rl_test_server(0));
    $t = $other->lock('rl205', 10000);
    $start = hrtime(true);
    try {
        $lock->synchronized('rl205', fn() => 'ran', 1000, 0.2);
        echo "no exception\n";
    } catch (RedisLockTimeoutException $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    echo "waited: ", (hrtime(true) - $start) / 1e9 >= 0.2 ? 'yes' : 'no', "\n";
    $other->unlock('rl205', $t);

    // nested: re-entrant on the same object
    var_dump($lock->synchronized('rl205', fn($t1) => $lock->synchronized('rl205', fn($t2) => $t1 === $t2)));
    echo "after nesting: ", $r->exists('lock:rl205'), "\n";

    foreach ([fn() => $lock->synchronized('', fn() => 1), fn() => $lock->synchronized('x', fn() => 1, 0),
              fn() => $lock->synchronized('x', fn() => 1, 1000, -1.0), fn() => $lock->synchronized('x', 'no_such_function')] as $bad) {
        try { $bad(); echo "no error\n"; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
    }
}
?>
--EXPECTF--
RedisLock
array(1) {
  ["answer"]=>
  int(42)
}
inside: held, with our token
after: 0
DomainException: callback failed
released after the throw: yes
RedisLockTimeoutException: lock "lock:rl205" not acquired within 0.200 s
waited: yes
bool(true)
after nesting: 0
ValueError: RedisLock::synchronized(): Argument #1 ($resource) must not be empty
ValueError: RedisLock::synchronized(): Argument #3 ($ttl) must be between 1 and 4398046511104
ValueError: RedisLock::synchronized(): Argument #4 ($wait) must be between 0 and 86400 seconds
TypeError: RedisLock::synchronized(): Argument #2 ($callback) must be a valid callback, function "no_such_function" not found or invalid function name
RedLock
array(1) {
  ["answer"]=>
  int(42)
}
inside: held, with our token
after: 0
DomainException: callback failed
released after the throw: yes
RedisLockTimeoutException: lock "lock:rl205" not acquired within 0.200 s
waited: yes
bool(true)
after nesting: 0
ValueError: RedLock::synchronized(): Argument #1 ($resource) must not be empty
ValueError: RedLock::synchronized(): Argument #3 ($ttl) must be between 1 and 4398046511104
ValueError: RedLock::synchronized(): Argument #4 ($wait) must be between 0 and 86400 seconds
TypeError: RedLock::synchronized(): Argument #2 ($callback) must be a valid callback, function "no_such_function" not found or invalid function name
