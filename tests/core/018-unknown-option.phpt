--TEST--
Unknown option names are ValueErrors naming $options and the option; drift_factor is RedLock's only
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$cases = [
    ['bogus' => 1],
    ['Prefix' => 'x:'],                     // names are case-sensitive
    ['prefix' => 'x:', 'retry_delay' => 5], // one bad among good ones
    ['drift_factor' => 0.01],
    ['db' => 1],
    ['auth' => 'pw'],
    ['read_timeout' => 1.0],
    [0 => 'prefix'],
    ['x:'],
];
foreach ($cases as $options) {
    try {
        new RedisLock(rl_test_server(0), $options);
        echo "accepted: ", json_encode($options), "\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// The known names are accepted.
$l = new RedisLock(rl_test_server(0), ['prefix' => 't018:', 'connect_timeout' => 2.5, 'timeout' => 3,
    'username' => null, 'password' => null, 'database' => 0, 'persistent' => false, 'auto_release' => true]);
$t = $l->lock('t018', 10000);
var_dump(is_string($t), $l->unlock('t018', $t));
?>
--EXPECT--
ValueError: RedisLock::__construct(): Argument #2 ($options) contains unknown option "bogus"
ValueError: RedisLock::__construct(): Argument #2 ($options) contains unknown option "Prefix"
ValueError: RedisLock::__construct(): Argument #2 ($options) contains unknown option "retry_delay"
ValueError: RedisLock::__construct(): Argument #2 ($options) contains unknown option "drift_factor"
ValueError: RedisLock::__construct(): Argument #2 ($options) contains unknown option "db"
ValueError: RedisLock::__construct(): Argument #2 ($options) contains unknown option "auth"
ValueError: RedisLock::__construct(): Argument #2 ($options) contains unknown option "read_timeout"
ValueError: RedisLock::__construct(): Argument #2 ($options) must have option names as keys
ValueError: RedisLock::__construct(): Argument #2 ($options) must have option names as keys
bool(true)
bool(true)
