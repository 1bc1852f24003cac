--TEST--
redis:// URLs: user-info (percent-decoded) and database from the URL log in and SELECT; a conflicting option is a ValueError naming both; the URL's password shows nowhere (messages, var_dump, stats, phpinfo, logger)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--INI--
zend.exception_ignore_args=0
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$admin = 'T089-admin';
$srv = new RlTestServer(['--requirepass', $admin]);
$c = $srv->client($admin);
$c->cmd('ACL', 'SETUSER', 'bob', 'on', '>T089 p@ss:w/rd%', '~lock:*', '+@all');
$port = $srv->port();
$enc = rawurlencode('T089 p@ss:w/rd%');
$seen = '';

$lock = new RedisLock("redis://bob:$enc@127.0.0.1:$port/3", ['logger' => function ($l, $m, $ctx) use (&$seen) {
    $seen .= $m . json_encode($ctx);
}]);
$t = $lock->lock('u089', 10000);
$c->cmd('SELECT', 3);
echo "locked in database 3 as bob: ", var_export($c->get('lock:u089') === $t, true), "\n";
$c->cmd('SELECT', 0);
echo "not in database 0: ", var_export($c->get('lock:u089') === null, true), "\n";
var_dump($lock->unlock('u089', $t));

// the same password in the option too is no conflict; a different one is
$same = new RedisLock("redis://:$admin@127.0.0.1:$port", ['password' => $admin]);
var_dump(is_string($same->lock('u089b', 1000)));
$cases = [
    'password twice' => ["redis://:$admin@127.0.0.1:$port", ['password' => 'T089-other']],
    'user twice' => ["redis://bob:$enc@127.0.0.1:$port", ['username' => 'alice', 'password' => 'T089 p@ss:w/rd%']],
    'database twice' => ["redis://127.0.0.1:$port/3", ['database' => 4]],
];
foreach ($cases as $what => [$url, $opts]) {
    try {
        new RedisLock($url, $opts);
        echo "$what: accepted\n";
    } catch (ValueError $e) {
        echo "$what: ", $e->getMessage(), "\n";
        $seen .= (string)$e;
    }
}
try {
    new RedLock(["redis://:$admin@127.0.0.1:$port", rl_test_server(0), rl_test_server(1)], 200, 3, ['password' => 'T089-x']);
} catch (ValueError $e) {
    echo "RedLock: ", $e->getMessage(), "\n";
    $seen .= (string)$e;
}

// a wrong password from a URL: the AUTH error names the node, not the URL
try {
    (new RedisLock("redis://:T089-wrong@127.0.0.1:$port"))->lock('u089', 1000);
} catch (RedisLockConnectionException $e) {
    echo "wrong password: code ", $e->getCode(), ", ", str_replace((string)$port, 'PORT', $e->getMessage()), "\n";
    $seen .= (string)$e;
}
foreach (["redis://:T089-bad%zz@127.0.0.1:$port", "redis://T089-alone@127.0.0.1:$port"] as $bad) {
    try {
        new RedisLock($bad);
    } catch (ValueError $e) {
        echo str_replace((string)$port, 'PORT', $e->getMessage()), "\n";
        $seen .= (string)$e;
    }
}
ob_start();
var_dump($lock);
print_r(RedisLock::stats());
phpinfo(INFO_MODULES);
$seen .= ob_get_clean();
echo "a password anywhere: ", var_export(str_contains($seen, 'T089') || str_contains($seen, 'p@ss') || str_contains($seen, 'p%40'), true), "\n";
?>
--EXPECTF--
locked in database 3 as bob: true
not in database 0: true
bool(true)
bool(true)
password twice: RedisLock::__construct(): Argument #1 ($server) sets a password in its URL, and Argument #2 ($options) sets another in option "password": give it once
user twice: RedisLock::__construct(): Argument #1 ($server) sets a user name in its URL, and Argument #2 ($options) sets another in option "username": give it once
database twice: RedisLock::__construct(): Argument #1 ($server) sets a database in its URL, and Argument #2 ($options) sets another in option "database": give it once
RedLock: RedLock::__construct(): Argument #1 ($servers) element 0 sets a password in its URL, and Argument #4 ($options) sets another in option "password": give it once
wrong password: code 3, Redis node 127.0.0.1:PORT: AUTH refused: WRONGPASS invalid username-password pair or user is disabled.
RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("redis://***@127.0.0.1:PORT"): malformed percent-encoding (or an encoded NUL) in the user-info
RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("redis://***@127.0.0.1:PORT"): user-info without ':' is ambiguous: write redis://:password@host or redis://user:password@host
a password anywhere: false
