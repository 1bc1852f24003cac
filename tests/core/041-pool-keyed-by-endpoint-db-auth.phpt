--TEST--
Persistent pool: keyed by endpoint, database, user and password; the same endpoint written differently shares a connection
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$server = new RlTestServer(['--requirepass', 'secret-pw']);
$r = $server->client('secret-pw');
$me = $r->cmd('CLIENT', 'ID');
$others = function () use ($r, $me) {
    $list = array_values(array_filter($r->clientList(), fn($c) => (int)$c['id'] !== $me));
    usort($list, fn($a, $b) => (int)$a['db'] <=> (int)$b['db'] ?: (int)$a['id'] <=> (int)$b['id']);
    return $list;
};
$port = $server->port();
$pw = ['password' => 'secret-pw'];

function use_lock(RedisLock $l, RlTestRedis $r, string $res, int $db = 0): string
{
    $t = $l->lock($res, 60000);
    $r->cmd('SELECT', $db);
    $ok = is_string($t) && $r->get("lock:$res") === $t;
    $ok = $ok && $l->unlock($res, $t) && $r->exists("lock:$res") === 0;
    $r->cmd('SELECT', 0);
    return $ok ? 'ok' : 'WRONG';
}

echo "-- one endpoint, three spellings, db 0\n";
foreach (["127.0.0.1:$port", "tcp://127.0.0.1:$port", ['host' => '127.0.0.1', 'port' => $port]] as $i => $addr) {
    echo use_lock(new RedisLock($addr, $pw), $r, "a$i"), "\n";
}
echo "connections: ", count($others()), "\n";

echo "-- database 1, twice\n";
echo use_lock(new RedisLock($server->addr(), $pw + ['database' => 1]), $r, 'b1', 1), "\n";
echo use_lock(new RedisLock($server->addr(), $pw + ['database' => 1]), $r, 'b2', 1), "\n";
$list = $others();
echo "connections: ", count($list), ", dbs: ", implode(',', array_column($list, 'db')), "\n";

echo "-- user 'default' named explicitly: another key\n";
echo use_lock(new RedisLock($server->addr(), $pw + ['username' => 'default']), $r, 'c1'), "\n";
echo "connections: ", count($others()), "\n";

echo "-- a wrong password does not get (or spoil) the pooled connection\n";
try {
    (new RedisLock($server->addr(), ['password' => 'wrong-pw']))->lock('d1', 60000);
    echo "no exception\n";
} catch (RedisLockConnectionException $e) {
    $msg = $e->getMessage();
    echo get_class($e), ": ", str_replace((string)$port, 'PORT', $msg), "\n";
    var_dump(str_contains($msg, 'wrong-pw'), str_contains($msg, 'secret-pw'));
}
var_dump($r->exists('lock:d1'));
echo use_lock(new RedisLock($server->addr(), $pw), $r, 'd2'), "\n";
rl_wait_until(fn() => count($others()) === 3, 5.0);
echo "connections: ", count($others()), "\n";
?>
--EXPECTF--
-- one endpoint, three spellings, db 0
ok
ok
ok
connections: 1
-- database 1, twice
ok
ok
connections: 2, dbs: 0,1
-- user 'default' named explicitly: another key
ok
connections: 3
-- a wrong password does not get (or spoil) the pooled connection
RedisLockConnectionException: Redis node 127.0.0.1:PORT: AUTH refused: WRONGPASS %s
bool(false)
bool(false)
int(0)
ok
connections: 3
