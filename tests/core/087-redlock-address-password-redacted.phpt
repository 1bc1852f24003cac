--TEST--
RedLock: a password in a list element's address never shows in the exception; $servers is a SensitiveParameterValue in traces
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

const SECRET = 'T087s3cret';

$lists = [
    [rl_test_server(0), 'redis://:' . SECRET . '@127.0.0.1:0'],
    [rl_test_server(0), rl_test_server(1), 'tcp://127.0.0.1:6379?password=' . SECRET],
    ['rediss://user:' . SECRET . '@h:99999'],
    [rl_test_server(0), ['host' => SECRET . '@127.0.0.1', 'port' => 6379]],
    [rl_test_server(0), 'tcp://' . str_repeat('b', 5000) . '?password=' . SECRET],
    [rl_test_server(0), 'redis://:' . SECRET . '@127.0.0.1/x', 'nohost:'],
];
foreach ($lists as $servers) {
    try {
        new RedLock($servers);
        echo "accepted\n";
    } catch (Throwable $e) {
        ob_start();
        var_dump($e);
        print_r($e);
        $all = $e->getMessage() . $e->getTraceAsString() . $e . ob_get_clean();
        echo get_class($e), ': ', $e->getMessage(), "\n";
        echo '  ', str_contains($all, SECRET) || str_contains($all, 's3cret') ? 'LEAKS THE PASSWORD' : 'no password shown', "\n";
        foreach ($e->getTrace() as $frame) {
            if (($frame['function'] ?? '') === '__construct') {
                echo '  frame: ', $frame['class'], '->__construct(', implode(', ', array_map('get_debug_type', $frame['args'])), ")\n";
            }
        }
    }
}
?>
--EXPECTF--
ValueError: RedLock::__construct(): Argument #1 ($servers) element 1 must be a valid server address ("redis://***@127.0.0.1:0"): port must be a number from 1 to 65535
  no password shown
  frame: RedLock->__construct(SensitiveParameterValue)
ValueError: RedLock::__construct(): Argument #1 ($servers) element 2 must be a valid server address ("tcp://127.0.0.1:6379?***"): port must be a number from 1 to 65535
  no password shown
  frame: RedLock->__construct(SensitiveParameterValue)
ValueError: RedLock::__construct(): Argument #1 ($servers) element 0 must be a valid server address ("rediss://***@h:99999"): port must be a number from 1 to 65535
  no password shown
  frame: RedLock->__construct(SensitiveParameterValue)
ValueError: RedLock::__construct(): Argument #1 ($servers) element 1 ["host"] must be a host name or address
  no password shown
  frame: RedLock->__construct(SensitiveParameterValue)
ValueError: RedLock::__construct(): Argument #1 ($servers) element 1 must be a valid server address ("tcp://bbbb%sbbbb..."): host contains '@', '?' or '#'; give credentials in the options "username" and "password"
  no password shown
  frame: RedLock->__construct(SensitiveParameterValue)
ValueError: RedLock::__construct(): Argument #1 ($servers) element 1 must be a valid server address ("redis://***@127.0.0.1/x"): the path must be a database number from 0 to 2147483647
  no password shown
  frame: RedLock->__construct(SensitiveParameterValue)
