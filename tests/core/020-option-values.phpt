--TEST--
Option values out of range are ValueErrors: timeout/connect_timeout <= 0, database < 0, username without password, empty credentials
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$cases = [
    ['timeout' => 0], ['timeout' => 0.0], ['timeout' => -1], ['timeout' => -0.5], ['timeout' => NAN],
    ['connect_timeout' => 0], ['connect_timeout' => -2.5],
    ['database' => -1], ['database' => PHP_INT_MIN],
    ['username' => 'alice'],
    ['username' => 'alice', 'password' => null],
    ['password' => ''],
    ['username' => '', 'password' => 'pw'],
];
foreach ($cases as $options) {
    try {
        new RedisLock(rl_test_server(0), $options);
        echo "accepted: ", var_export($options, true), "\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// Small positive timeouts and database 0 are fine.
$l = new RedisLock(rl_test_server(0), ['timeout' => 0.5, 'connect_timeout' => 0.5, 'database' => 0]);
$t = $l->lock('t020', 10000);
var_dump(is_string($t), $l->unlock('t020', $t));
?>
--EXPECT--
ValueError: RedisLock::__construct(): Argument #2 ($options) option "timeout" must be greater than 0 and at most 86400 seconds
ValueError: RedisLock::__construct(): Argument #2 ($options) option "timeout" must be greater than 0 and at most 86400 seconds
ValueError: RedisLock::__construct(): Argument #2 ($options) option "timeout" must be greater than 0 and at most 86400 seconds
ValueError: RedisLock::__construct(): Argument #2 ($options) option "timeout" must be greater than 0 and at most 86400 seconds
ValueError: RedisLock::__construct(): Argument #2 ($options) option "timeout" must be greater than 0 and at most 86400 seconds
ValueError: RedisLock::__construct(): Argument #2 ($options) option "connect_timeout" must be greater than 0 and at most 86400 seconds
ValueError: RedisLock::__construct(): Argument #2 ($options) option "connect_timeout" must be greater than 0 and at most 86400 seconds
ValueError: RedisLock::__construct(): Argument #2 ($options) option "database" must be between 0 and 2147483647
ValueError: RedisLock::__construct(): Argument #2 ($options) option "database" must be between 0 and 2147483647
ValueError: RedisLock::__construct(): Argument #2 ($options) option "username" needs a "password" too
ValueError: RedisLock::__construct(): Argument #2 ($options) option "username" needs a "password" too
ValueError: RedisLock::__construct(): Argument #2 ($options) option "password" must be a non-empty string without NUL bytes
ValueError: RedisLock::__construct(): Argument #2 ($options) option "username" must be a non-empty string without NUL bytes
bool(true)
bool(true)
