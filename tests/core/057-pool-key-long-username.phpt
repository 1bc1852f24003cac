--TEST--
Pool key: a 700-character ACL user name with the right and a wrong password, 40 rounds alternating: the wrong one is always refused, the right one always works (the key is exact, not cut at a fixed size); error codes name AUTH
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

$admin = 'T057-admin-pw';
$srv = new RlTestServer(['--requirepass', $admin]);
$c = $srv->client($admin);
$addr = $srv->addr();
$user = 'u' . str_repeat('x', 698) . 'z';
var_dump(strlen($user));
var_dump($c->cmd('ACL', 'SETUSER', $user, 'on', '>T057-right', '~lock:*', '+@all'));

$right = ['username' => $user, 'password' => 'T057-right'];
$wrong = ['username' => $user, 'password' => 'T057-wrong'];
$ok = $refused = $wrongAccepted = $rightRefused = 0;
$codes = [];
for ($i = 0; $i < 40; $i++) {
    $opts = $i % 2 ? $wrong : $right;
    try {
        $lock = new RedisLock($addr, $opts);
        $t = $lock->lock("t057-$i", 30000);
        $lock->unlock("t057-$i", $t);
        $i % 2 ? $wrongAccepted++ : $ok++;
    } catch (RedisLockConnectionException $e) {
        $i % 2 ? $refused++ : $rightRefused++;
        $codes[$e->getCode()] = true;
        if (str_contains($e->getMessage(), 'T057-')) {
            echo "LEAKS A PASSWORD\n";
        }
    }
}
echo "right accepted: $ok, wrong refused: $refused, wrong accepted: $wrongAccepted, right refused: $rightRefused\n";
echo "codes: ", implode(',', array_keys($codes)), "\n";

// the pool holds one logged-in command connection for the user
$rows = array_filter(RedisLock::stats()['connections'], fn($r) => $r['endpoint'] === $addr);
echo "pool rows: ", count($rows), "\n";
$users = array_values(array_filter(array_column($c->clientList(), 'user'), fn($u) => $u !== 'default'));
echo "server sessions as the user: ", count($users), ", name intact: ", var_export(($users[0] ?? '') === $user, true), "\n";
?>
--EXPECT--
int(700)
string(2) "OK"
right accepted: 20, wrong refused: 20, wrong accepted: 0, right refused: 0
codes: 3
pool rows: 2
server sessions as the user: 1, name intact: true
