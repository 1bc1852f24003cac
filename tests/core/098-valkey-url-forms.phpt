--TEST--
valkey:// URLs work as redis:// (user-info percent-decoded, database, ACL user, RedLock and sentinel lists); malformed schemes (valkey:/, valkeyss://) are a ValueError naming the argument; the URL's password shows in no message
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); rl_skip_unless_servers(3); ?>
--EXTENSIONS--
redislock
--INI--
zend.exception_ignore_args=0
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$admin = 'T098-admin';
$srv = new RlTestServer(['--requirepass', $admin]);
$c = $srv->client($admin);
$c->cmd('ACL', 'SETUSER', 'vera', 'on', '>T098 v@lk:ey/%', '~lock:*', '+@all');
$port = $srv->port();
$enc = rawurlencode('T098 v@lk:ey/%');
$seen = '';
$p = fn(string $s) => str_replace((string)$port, 'PORT', $s);

// the password alone, and a database
$lock = new RedisLock("valkey://:$admin@127.0.0.1:$port/2");
$t = $lock->lock('u098', 10000);
$c->cmd('SELECT', 2);
echo "locked in database 2: ", var_export(is_string($t) && $c->get('lock:u098') === $t, true), "\n";
$c->cmd('SELECT', 0);
echo "not in database 0: ", var_export($c->get('lock:u098') === null, true), "\n";
var_dump($lock->unlock('u098', $t));

// an ACL user, percent-encoded password, and waiting (the wait connection logs in the same way)
$a = new RedisLock("valkey://vera:$enc@127.0.0.1:$port/3");
$b = new RedisLock("valkey://vera:$enc@127.0.0.1:$port/3");
$ta = $a->lock('w098', 300);
$tb = $b->lock('w098', 10000, 5.0);
echo "the waiter has it after the holder's TTL: ", var_export(is_string($ta) && is_string($tb) && $ta !== $tb, true), "\n";
var_dump($b->unlock('w098', $tb));
foreach (RedisLock::stats()['connections'] as $conn) {
    echo $p($conn['endpoint']), " db {$conn['database']} {$conn['role']}\n";
}

// a conflicting option is named as for redis://
try {
    new RedisLock("valkey://:$admin@127.0.0.1:$port", ['password' => 'T098-other']);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
    $seen .= (string)$e;
}

// RedLock nodes given as valkey:// URLs; the shared servers have no password
$servers = array_map(fn($i) => "valkey://" . rl_test_server($i) . "/1", [0, 1, 2]);
$rl = new RedLock($servers);
$t = $rl->lock('r098', 10000);
echo "RedLock over valkey:// nodes: ", var_export(is_string($t) && $rl->unlock('r098', $t), true), "\n";

// a wrong password from a valkey:// URL: the AUTH error names the node, not the URL
try {
    (new RedisLock("valkey://:T098-wrong@127.0.0.1:$port"))->lock('u098', 1000);
} catch (RedisLockConnectionException $e) {
    echo "wrong password: code ", $e->getCode(), ", ", $p($e->getMessage()), "\n";
    $seen .= (string)$e;
}

// malformed forms: a ValueError naming the argument, the user-info as ***
$bad = [
    "valkey:/127.0.0.1:$port",
    "valkey:/:T098-pw@127.0.0.1:$port",
    "valkeyss://:T098-pw@127.0.0.1:$port",
    "valkeys:127.0.0.1",
    "valkey://T098-alone@127.0.0.1:$port",
    "valkey://:T098-bad%zz@127.0.0.1:$port",
    "valkey://127.0.0.1:$port/db",
    "valkey://:T098-pw@127.0.0.1:$port?timeout=1",
    "valkey://",
];
foreach ($bad as $spec) {
    try {
        new RedisLock($spec);
        echo "accepted\n";
    } catch (ValueError $e) {
        echo $p($e->getMessage()), "\n";
        $seen .= (string)$e;
    }
}
try {
    new RedLock([rl_test_server(0), "valkeyss://:T098-pw@h:1", rl_test_server(1)]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
    $seen .= (string)$e;
}
try {
    new RedisLock(['sentinels' => ["valkey:/:T098-pw@h:26379"], 'service' => 'm']);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
    $seen .= (string)$e;
}
try {
    new RedisLock(['cluster' => ["valkey://h:7000", "valkeyss://:T098-pw@h:7001"]]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
    $seen .= (string)$e;
}
new RedisLock(['sentinels' => ["valkey://:T098-spw@10.0.0.1:26379", "valkey://10.0.0.2:26379"], 'service' => 'm']);
new RedisLock(['cluster' => ["valkey://10.0.0.1:7000", "valkey://10.0.0.2:7000"]], ['password' => 'T098-cpw']);
echo "sentinels and cluster seeds as valkey:// URLs: accepted\n";
ob_start();
var_dump($lock, $a);
print_r(RedisLock::stats());
phpinfo(INFO_MODULES);
$seen .= ob_get_clean();
echo "a password anywhere: ", var_export(str_contains($seen, 'T098') || str_contains($seen, 'v@lk') || str_contains($seen, 'v%40'), true), "\n";
?>
--EXPECT--
locked in database 2: true
not in database 0: true
bool(true)
the waiter has it after the holder's TTL: true
bool(true)
127.0.0.1:PORT db 2 command
127.0.0.1:PORT db 3 command
127.0.0.1:PORT db 3 wait
RedisLock::__construct(): Argument #1 ($server) sets a password in its URL, and Argument #2 ($options) sets another in option "password": give it once
RedLock over valkey:// nodes: true
wrong password: code 3, Redis node 127.0.0.1:PORT: AUTH refused: WRONGPASS invalid username-password pair or user is disabled.
RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("valkey:/127.0.0.1:PORT"): malformed URL: write the scheme with "://" (tcp://, tls://, unix://, redis://, rediss://, valkey:// or valkeys://)
RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("***@127.0.0.1:PORT"): malformed URL: write the scheme with "://" (tcp://, tls://, unix://, redis://, rediss://, valkey:// or valkeys://)
RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("valkeyss://***@127.0.0.1:PORT"): unknown scheme, expected tcp://, tls://, unix://, redis://, rediss://, valkey:// or valkeys://
RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("valkeys:127.0.0.1"): malformed URL: write the scheme with "://" (tcp://, tls://, unix://, redis://, rediss://, valkey:// or valkeys://)
RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("valkey://***@127.0.0.1:PORT"): user-info without ':' is ambiguous: write valkey://:password@host or valkey://user:password@host
RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("valkey://***@127.0.0.1:PORT"): malformed percent-encoding (or an encoded NUL) in the user-info
RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("valkey://127.0.0.1:PORT/db"): the path must be a database number from 0 to 2147483647
RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("valkey://***@127.0.0.1:PORT?***"): URL query parameters are not supported: give settings in the options array
RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("valkey://"): host is empty
RedLock::__construct(): Argument #1 ($servers) element 1 must be a valid server address ("valkeyss://***@h:1"): unknown scheme, expected tcp://, tls://, unix://, redis://, rediss://, valkey:// or valkeys://
RedisLock::__construct(): Argument #1 ($server) ["sentinels"][0] must be a valid server address ("***@h:26379"): malformed URL: write the scheme with "://" (tcp://, tls://, unix://, redis://, rediss://, valkey:// or valkeys://)
RedisLock::__construct(): Argument #1 ($server) ["cluster"][1] must be a valid server address ("valkeyss://***@h:7001"): unknown scheme, expected tcp://, tls://, unix://, redis://, rediss://, valkey:// or valkeys://
sentinels and cluster seeds as valkey:// URLs: accepted
a password anywhere: false
