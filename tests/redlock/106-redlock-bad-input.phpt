--TEST--
RedLock: bad constructor and method arguments throw errors naming the argument
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$good = rl_test_servers(1);
$cases = [
    fn() => new RedLock([]),
    fn() => new RedLock(['a' => rl_test_server()]),
    fn() => new RedLock([1 => rl_test_server()]),
    fn() => new RedLock([rl_test_server(), 'nohost:']),
    fn() => new RedLock([rl_test_server(), ['host' => '127.0.0.1', 'port' => 'x']]),
    fn() => new RedLock([rl_test_server(), 42]),
    fn() => new RedLock($good, -1),
    fn() => new RedLock($good, 200, -1),
    fn() => new RedLock($good, 200, 3, ['nope' => 1]),
    fn() => new RedLock($good, 200, 3, ['drift_factor' => 'x']),
    fn() => new RedLock($good, 200, 3, ['drift_factor' => 0.5]),
    fn() => new RedLock($good, 200, 3, ['timeout' => 0]),
    fn() => (new RedLock($good))->lock('', 1000),
    fn() => (new RedLock($good))->lock('r', 0),
    fn() => (new RedLock($good))->lock('r', 1000, -1.0),
    fn() => (new RedLock($good))->unlock('r', ''),
    fn() => (new RedLock($good))->extend('r', 't', -5),
    fn() => (new RedLock($good))->getValidity(''),
];
foreach ($cases as $case) {
    try {
        $case();
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// a drift factor in range, and int retry settings of 0, are fine
$l = new RedLock($good, 0, 0, ['drift_factor' => 0.2]);
$t = $l->lock('rl106', 1000);
var_dump(is_string($t), $l->unlock('rl106', $t));
?>
--EXPECT--
ValueError: RedLock::__construct(): Argument #1 ($servers) must hold between 1 and 64 servers
ValueError: RedLock::__construct(): Argument #1 ($servers) must be a list of servers
ValueError: RedLock::__construct(): Argument #1 ($servers) must be a list of servers
ValueError: RedLock::__construct(): Argument #1 ($servers) element 1 must be a valid server address ("nohost:"): port must be a number from 1 to 65535
ValueError: RedLock::__construct(): Argument #1 ($servers) element 1 ["port"] must be an int from 1 to 65535
TypeError: RedLock::__construct(): Argument #1 ($servers) element 1 must be of type Redis|RedisCluster|string|array, int given
ValueError: RedLock::__construct(): Argument #2 ($retryDelay) must be between 0 and 60000 (ms)
ValueError: RedLock::__construct(): Argument #3 ($retryCount) must be between 0 and 1000000
ValueError: RedLock::__construct(): Argument #4 ($options) contains unknown option "nope"
TypeError: RedLock::__construct(): Argument #4 ($options) option "drift_factor" must be of type float, string given
ValueError: RedLock::__construct(): Argument #4 ($options) option "drift_factor" must be at least 0 and less than 0.5
ValueError: RedLock::__construct(): Argument #4 ($options) option "timeout" must be greater than 0 and at most 86400 seconds
ValueError: RedLock::lock(): Argument #1 ($resource) must not be empty
ValueError: RedLock::lock(): Argument #2 ($ttl) must be between 1 and 4398046511104
ValueError: RedLock::lock(): Argument #3 ($wait) must be null or between 0 and 86400 seconds
ValueError: RedLock::unlock(): Argument #2 ($token) must not be empty
ValueError: RedLock::extend(): Argument #3 ($ttl) must be between 1 and 4398046511104
ValueError: RedLock::getValidity(): Argument #1 ($resource) must not be empty
bool(true)
bool(true)
