--TEST--
ACL user: username + password options log in as that user; a wrong password or unknown user fails
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$admin = 'T028-admin-pw';
$srv = new RlTestServer(['--requirepass', $admin]);
$c = $srv->client($admin);
$addr = $srv->addr();
// alice may only touch the lock keys.
var_dump($c->cmd('ACL', 'SETUSER', 't028alice', 'on', '>T028-alice-pw', '~lock:*', '+@all'));

$alice = new RedisLock($addr, ['username' => 't028alice', 'password' => 'T028-alice-pw']);
$t = $alice->lock('t028', 30000);
var_dump(is_string($t) && $c->get('lock:t028') === $t);
// The extension's (persistent) connection is logged in as alice.
$users = array_column(array_filter($c->clientList(), fn($cl) => $cl['cmd'] !== 'client|list'), 'user');
var_dump($users);
var_dump($alice->extend('t028', $t, 40000));
var_dump($alice->unlock('t028', $t));
var_dump($c->exists('lock:t028'));

// As alice, only "lock:*" keys: another prefix is refused by Redis (not a connection problem).
$outside = new RedisLock($addr, ['username' => 't028alice', 'password' => 'T028-alice-pw', 'prefix' => 'other:']);
try {
    $outside->lock('t028', 30000);
    echo "no exception\n";
} catch (RedisLockException $e) {
    echo get_class($e), ': ', str_replace($addr, 'ADDR', $e->getMessage()), "\n";
}

$cases = [
    'wrong password' => ['username' => 't028alice', 'password' => 'T028-not-alices'],
    'unknown user' => ['username' => 't028bob', 'password' => 'T028-alice-pw'],
    "admin's password for alice" => ['username' => 't028alice', 'password' => $admin],
    "alice's password alone" => ['password' => 'T028-alice-pw'],
];
foreach ($cases as $what => $opts) {
    try {
        (new RedisLock($addr, $opts))->lock('t028', 30000);
        echo "$what: no exception\n";
    } catch (RedisLockException $e) {
        $msg = $e->getMessage();
        echo "$what: ", get_class($e), ': ', str_replace($addr, 'ADDR', $msg), "\n";
        if (str_contains($msg, 'T028-')) {
            echo "  LEAKS A PASSWORD\n";
        }
    }
}
var_dump($c->exists('lock:t028'));
?>
--EXPECTF--
string(2) "OK"
bool(true)
array(1) {
  [0]=>
  string(9) "t028alice"
}
bool(true)
bool(true)
int(0)
RedisLockException: Redis node ADDR: NOPERM %s
wrong password: RedisLockConnectionException: Redis node ADDR: AUTH refused: WRONGPASS %s
unknown user: RedisLockConnectionException: Redis node ADDR: AUTH refused: WRONGPASS %s
admin's password for alice: RedisLockConnectionException: Redis node ADDR: AUTH refused: WRONGPASS %s
alice's password alone: RedisLockConnectionException: Redis node ADDR: AUTH refused: WRONGPASS %s
int(0)
