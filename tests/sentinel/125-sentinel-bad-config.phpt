--TEST--
Sentinel: bad sentinel forms are a ValueError/TypeError naming the key, before any network I/O; URL credentials in the sentinel list follow the URL rules
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
$ok = ['127.0.0.1:26379'];
$cases = [
    'no service' => ['sentinels' => $ok],
    'no sentinels' => ['service' => 'm'],
    'empty list' => ['sentinels' => [], 'service' => 'm'],
    'not a list' => ['sentinels' => ['a' => '127.0.0.1:1'], 'service' => 'm'],
    'a string' => ['sentinels' => '127.0.0.1:26379', 'service' => 'm'],
    'empty service' => ['sentinels' => $ok, 'service' => ''],
    'int service' => ['sentinels' => $ok, 'service' => 5],
    'unknown key' => ['sentinels' => $ok, 'service' => 'm', 'password' => 'T125-secret'],
    'bad address' => ['sentinels' => ['127.0.0.1:1', 'h:99999'], 'service' => 'm'],
    'bad host array' => ['sentinels' => [['host' => '', 'port' => 1]], 'service' => 'm'],
    'nested group' => ['sentinels' => [['sentinels' => $ok, 'service' => 'x']], 'service' => 'm'],
    'int password' => ['sentinels' => $ok, 'service' => 'm', 'sentinel_password' => 12345],
    'array user' => ['sentinels' => $ok, 'service' => 'm', 'sentinel_username' => []],
    'URL database' => ['sentinels' => ['redis://127.0.0.1:26379/2'], 'service' => 'm'],
    'URL password twice' => ['sentinels' => ['redis://:T125-url@127.0.0.1:26379'], 'service' => 'm',
                             'sentinel_password' => 'T125-opt'],
    'object' => ['sentinels' => [new stdClass], 'service' => 'm'],
];
foreach ($cases as $what => $form) {
    try {
        new RedisLock($form);
        echo "$what: accepted\n";
    } catch (ValueError|TypeError $e) {
        echo "$what: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
try {
    new RedLock([['sentinels' => [], 'service' => 'm'], '127.0.0.1:1', '127.0.0.1:2']);
} catch (ValueError $e) {
    echo "RedLock: ", $e->getMessage(), "\n";
}
try {
    new RedLock([['sentinels' => ['127.0.0.1:1', '127.0.0.1:2'], 'service' => 'm'], '127.0.0.1:3',
                 ['sentinels' => ['127.0.0.1:2'], 'service' => 'm']]);
} catch (ValueError $e) {
    echo "RedLock: ", $e->getMessage(), "\n";
}
// good forms construct without I/O (nothing listens on these ports)
new RedisLock(['sentinels' => ['redis://:T125-url@127.0.0.1:1', ['host' => '127.0.0.1', 'port' => 2]], 'service' => 'm',
               'sentinel_password' => 'T125-url', 'sentinel_username' => null]);
new RedLock([['sentinels' => ['127.0.0.1:1'], 'service' => 'm'], ['sentinels' => ['127.0.0.1:1'], 'service' => 'n'], '127.0.0.1:3']);
echo "good forms constructed\n";
?>
--EXPECT--
no service: ValueError: RedisLock::__construct(): Argument #1 ($server) ["service"] must be a non-empty string
no sentinels: ValueError: RedisLock::__construct(): Argument #1 ($server) ["sentinels"] must be a non-empty list of server addresses
empty list: ValueError: RedisLock::__construct(): Argument #1 ($server) ["sentinels"] must be a non-empty list of server addresses
not a list: ValueError: RedisLock::__construct(): Argument #1 ($server) ["sentinels"] must be a non-empty list of server addresses
a string: ValueError: RedisLock::__construct(): Argument #1 ($server) ["sentinels"] must be a non-empty list of server addresses
empty service: ValueError: RedisLock::__construct(): Argument #1 ($server) ["service"] must be a non-empty string
int service: ValueError: RedisLock::__construct(): Argument #1 ($server) ["service"] must be a non-empty string
unknown key: ValueError: RedisLock::__construct(): Argument #1 ($server) must be a sentinel group with only the keys "sentinels", "service", "sentinel_username" and "sentinel_password"
bad address: ValueError: RedisLock::__construct(): Argument #1 ($server) ["sentinels"][1] must be a valid server address ("h:99999"): port must be a number from 1 to 65535
bad host array: ValueError: RedisLock::__construct(): Argument #1 ($server) ["sentinels"][0] ["host"] must be a non-empty string
nested group: ValueError: RedisLock::__construct(): Argument #1 ($server) ["sentinels"][0] must be a server address, not a sentinel group
int password: TypeError: RedisLock::__construct(): Argument #1 ($server) ["sentinel_password"] must be of type ?string, int given
array user: TypeError: RedisLock::__construct(): Argument #1 ($server) ["sentinel_username"] must be of type ?string, array given
URL database: ValueError: RedisLock::__construct(): Argument #1 ($server) ["sentinels"][0] must not select a database: sentinels have none
URL password twice: ValueError: RedisLock::__construct(): Argument #1 ($server) ["sentinels"][0] sets a password in its URL, and ["sentinel_password"] sets another: give it once
object: TypeError: RedisLock::__construct(): Argument #1 ($server) ["sentinels"][0] must be of type Redis|RedisCluster|string|array, stdClass given
RedLock: RedLock::__construct(): Argument #1 ($servers) element 0 ["sentinels"] must be a non-empty list of server addresses
RedLock: RedLock::__construct(): Argument #1 ($servers) element 2 is the same sentinel group as element 0 (service and a sentinel in common): a quorum needs independent nodes
good forms constructed
