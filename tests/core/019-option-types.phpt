--TEST--
Every option with a wrong type is a TypeError naming $options, the option and the types
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$cases = [
    ['prefix', 1], ['prefix', null], ['prefix', ['a']],
    ['connect_timeout', '1.0'], ['connect_timeout', true], ['connect_timeout', null],
    ['timeout', '1'], ['timeout', false], ['timeout', []],
    ['username', 1], ['username', true], ['username', new stdClass],
    ['password', 123456], ['password', false], ['password', ['pw']],
    ['database', '3'], ['database', 3.0], ['database', null], ['database', true],
    ['persistent', 1], ['persistent', 'yes'], ['persistent', null],
    ['auto_release', 0], ['auto_release', 'no'], ['auto_release', 1.0],
];
foreach ($cases as [$name, $value]) {
    try {
        new RedisLock(rl_test_server(0), [$name => $value]);
        echo "$name: accepted ", get_debug_type($value), "\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
TypeError: RedisLock::__construct(): Argument #2 ($options) option "prefix" must be of type string, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "prefix" must be of type string, null given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "prefix" must be of type string, array given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "connect_timeout" must be of type float, string given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "connect_timeout" must be of type float, bool given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "connect_timeout" must be of type float, null given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "timeout" must be of type float, string given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "timeout" must be of type float, bool given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "timeout" must be of type float, array given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "username" must be of type ?string, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "username" must be of type ?string, bool given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "username" must be of type ?string, stdClass given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "password" must be of type ?string, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "password" must be of type ?string, bool given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "password" must be of type ?string, array given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "database" must be of type int, string given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "database" must be of type int, float given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "database" must be of type int, null given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "database" must be of type int, bool given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "persistent" must be of type bool, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "persistent" must be of type bool, string given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "persistent" must be of type bool, null given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "auto_release" must be of type bool, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "auto_release" must be of type bool, string given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "auto_release" must be of type bool, float given
