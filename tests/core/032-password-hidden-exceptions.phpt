--TEST--
The password never shows in exception messages or traces (#[\SensitiveParameter] on the servers and $options)
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--EXTENSIONS--
redislock
--INI--
zend.exception_ignore_args=0
zend.exception_string_param_max_len=1000000
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$pw = 'T032-Sup3r-S3cret';
$srv = new RlTestServer(['--requirepass', $pw]);
$addr = $srv->addr();

function check(Throwable $e, string $addr): void
{
    $all = $e->getMessage() . "\n" . $e->getTraceAsString() . "\n" . $e;
    $msg = str_replace($addr, 'ADDR', $e->getMessage());
    echo get_class($e), ': ', $msg, "\n";
    echo '  ', str_contains($all, 'S3cret') || str_contains($all, 'T032-') ? 'LEAKS THE PASSWORD' : 'no password shown', "\n";
    // The constructor frame shows the options as a SensitiveParameterValue.
    foreach ($e->getTrace() as $frame) {
        if (($frame['function'] ?? '') === '__construct' && isset($frame['args'])) {
            echo '  frame: ', $frame['class'], '->__construct(',
                implode(', ', array_map('get_debug_type', $frame['args'])), ")\n";
        }
    }
}

function make(string $addr, array $options): RedisLock
{
    return new RedisLock($addr, $options);
}

$attempts = [
    // Thrown by the constructor itself, with the password among the options.
    fn() => new RedisLock($addr, ['password' => $pw, 'database' => -1]),
    fn() => new RedisLock($addr, ['password' => $pw, 'bogus' => true]),
    fn() => new RedisLock($addr, ['password' => $pw, 'timeout' => 'slow']),
    fn() => new RedisLock("$addr:x", ['password' => $pw]),
    fn() => new RedisLock($addr, ['password' => "T032-Sup3r-S3cret\0with-a-nul"]),
    fn() => new RedLock([$addr], 200, 3, ['password' => $pw, 'database' => -1]),
    // Wrong password: refused by the server.
    fn() => (new RedisLock($addr, ['password' => 'T032-Wrong-S3cret']))->lock('t032', 1000),
    fn() => (new RedisLock($addr, ['username' => 'default', 'password' => 'T032-Wrong-S3cret']))->lock('t032', 1000),
    fn() => (new RedisLock($addr, ['password' => 'T032-Wrong-S3cret']))->acquireLock('t032', 1),
];
foreach ($attempts as $f) {
    try {
        $f();
        echo "no exception\n";
    } catch (Throwable $e) {
        check($e, $addr);
    }
}

// The right password works, and the trace of a later error does not show it.
$l = make($addr, ['password' => $pw]);
$t = $l->lock('t032', 30000);
var_dump(is_string($t));
try {
    $l->lock('t032', -1);
} catch (ValueError $e) {
    check($e, $addr);
}
var_dump($l->unlock('t032', $t));
?>
--EXPECTF--
ValueError: RedisLock::__construct(): Argument #2 ($options) option "database" must be between 0 and 2147483647
  no password shown
  frame: RedisLock->__construct(SensitiveParameterValue, SensitiveParameterValue)
ValueError: RedisLock::__construct(): Argument #2 ($options) contains unknown option "bogus"
  no password shown
  frame: RedisLock->__construct(SensitiveParameterValue, SensitiveParameterValue)
TypeError: RedisLock::__construct(): Argument #2 ($options) option "timeout" must be of type float, string given
  no password shown
  frame: RedisLock->__construct(SensitiveParameterValue, SensitiveParameterValue)
ValueError: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("ADDR:x"): IPv6 addresses must be written as [addr]:port
  no password shown
  frame: RedisLock->__construct(SensitiveParameterValue, SensitiveParameterValue)
ValueError: RedisLock::__construct(): Argument #2 ($options) option "password" must be a non-empty string without NUL bytes
  no password shown
  frame: RedisLock->__construct(SensitiveParameterValue, SensitiveParameterValue)
ValueError: RedLock::__construct(): Argument #4 ($options) option "database" must be between 0 and 2147483647
  no password shown
  frame: RedLock->__construct(SensitiveParameterValue, int, int, SensitiveParameterValue)
RedisLockConnectionException: Redis node ADDR: AUTH refused: %s
  no password shown
RedisLockConnectionException: Redis node ADDR: AUTH refused: %s
  no password shown
RedisLockConnectionException: Redis node ADDR: AUTH refused: %s
  no password shown
bool(true)
ValueError: RedisLock::lock(): Argument #2 ($ttl) must be between 1 and 4398046511104
  no password shown
bool(true)
