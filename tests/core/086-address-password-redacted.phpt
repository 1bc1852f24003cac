--TEST--
RedisLock: a password in the server address never shows in the exception (message, trace, string, var_dump, print_r); the user-info and query are shown as ***
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--INI--
zend.exception_ignore_args=0
zend.exception_string_param_max_len=1000000
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

const SECRET = 'T086s3cret';

function report(Throwable $e): void
{
    ob_start();
    var_dump($e);
    print_r($e);
    echo "\n", var_export(array_map(fn($f) => $f['args'] ?? null, $e->getTrace()), true);
    $dumps = ob_get_clean();
    $all = $e->getMessage() . "\n" . $e->getTraceAsString() . "\n" . $e . "\n" . $dumps;
    echo get_class($e), ': ', $e->getMessage(), "\n";
    echo '  ', str_contains($all, SECRET) || str_contains($all, 's3cret') ? 'LEAKS THE PASSWORD' : 'no password shown', "\n";
}

$addresses = [
    'tcp://127.0.0.1:6379?password=' . SECRET,
    'redis://:' . SECRET . '@host:0',             // a URL that fails to parse after its user-info
    'rediss://user:' . SECRET . '@h:99999',
    'tcp://h:1?auth=' . SECRET,
    'redis://user:' . SECRET . '@h:6379/0?timeout=1#x',
    'redis://:pa?' . SECRET . '@host/x',          // a '?' in the password
    SECRET . '@127.0.0.1:6379',                   // parsed to host "T086s3cret@127.0.0.1" before
    'tcp://127.0.0.1?password=' . SECRET,         // parsed to host "127.0.0.1?password=..." before
    'unix:///tmp/t086.sock?password=' . SECRET,
];
foreach ($addresses as $server) {
    try {
        new RedisLock($server, ['connect_timeout' => 0.2, 'timeout' => 0.2]);
        echo "accepted\n";
    } catch (Throwable $e) {
        report($e);
    }
}

echo "array forms:\n";
foreach ([['host' => SECRET . '@127.0.0.1', 'port' => 6379],
          ['host' => '127.0.0.1?password=' . SECRET],
          ['host' => '/tmp/t086.sock?password=' . SECRET]] as $server) {
    try {
        new RedisLock($server);
        echo "accepted\n";
    } catch (Throwable $e) {
        report($e);
    }
}

echo "a 5000-character address:\n";
foreach (['tcp://' . str_repeat('a', 5000) . ':x',
          'tcp://' . str_repeat('a', 5000) . '?password=' . SECRET] as $server) {
    try {
        new RedisLock($server);
        echo "accepted\n";
    } catch (ValueError $e) {
        $m = $e->getMessage();
        $at = strpos($m, '("');
        echo "  message length: ", strlen($m) < 400 ? 'bounded' : strlen($m), "\n";
        $end = strpos($m, '")', $at);
        echo "  shown: ", substr($m, $at, 12), ' .. ', substr($m, $end - 8, 10), " (", $end - $at - 2, " characters)\n";
        echo '  ', str_contains($m . $e . $e->getTraceAsString(), SECRET) ? 'LEAKS THE PASSWORD' : 'no password shown', "\n";
    }
}

// Addresses without secrets still show whole, and the good ones work.
try {
    new RedisLock('host:abc');
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
$l = new RedisLock('tcp://' . rl_test_server(0));
$t = $l->lock('t086', 10000);
var_dump(is_string($t) && $l->unlock('t086', $t));
?>
--EXPECT--
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("tcp://127.0.0.1:6379?***"): port must be a number from 1 to 65535
  no password shown
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("redis://***@host:0"): port must be a number from 1 to 65535
  no password shown
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("rediss://***@h:99999"): port must be a number from 1 to 65535
  no password shown
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("tcp://h:1?***"): port must be a number from 1 to 65535
  no password shown
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("redis://***@h:6379/0?***#***"): URL query parameters are not supported: give settings in the options array
  no password shown
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("redis://***"): the path must be a database number from 0 to 2147483647
  no password shown
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("***@127.0.0.1:6379"): host contains '@', '?' or '#'; give credentials in the options "username" and "password"
  no password shown
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("tcp://127.0.0.1?***"): host contains '@', '?' or '#'; give credentials in the options "username" and "password"
  no password shown
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("unix:///tmp/t086.sock?***"): unix socket path contains '?' or '#'
  no password shown
array forms:
ValueError: RedisLock::__construct(): Argument #1 ($server) ["host"] must be a host name or address
  no password shown
ValueError: RedisLock::__construct(): Argument #1 ($server) ["host"] must be a host name or address
  no password shown
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("/tmp/t086.sock?***"): unix socket path contains '?' or '#'
  no password shown
a 5000-character address:
  message length: bounded
  shown: ("tcp://aaaa .. aaaaa...") (127 characters)
  no password shown
  message length: bounded
  shown: ("tcp://aaaa .. aaaaa...") (127 characters)
  no password shown
RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("host:abc"): port must be a number from 1 to 65535
bool(true)
