--TEST--
RedLock: getValidity() decreases with time; a TTL too small for the drift is refused and undone on every node
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$servers = rl_test_servers(3);
$clients = array_map(fn($s) => new RlTestRedis("{$s['host']}:{$s['port']}"), $servers);
$lock = new RedLock($servers, 0, 1);
var_dump($lock->getValidity('rl104'));                 // not held
$t = $lock->lock('rl104', 10000);
$v1 = $lock->getValidity('rl104');
// validity = ttl - elapsed - (ttl * 0.01 + 2): below 9898, and not much lower
echo "first: ", ($v1 <= 9898 && $v1 > 9000) ? 'ok' : "wrong ($v1)", "\n";
usleep(300000);
$v2 = $lock->getValidity('rl104');
echo "after 300 ms: ", ($v2 <= $v1 - 290 && $v2 > $v1 - 1000) ? 'decreased' : "wrong ($v1 -> $v2)", "\n";
var_dump($lock->extend('rl104', $t, 20000));
$v3 = $lock->getValidity('rl104');
echo "after extend: ", ($v3 > 19000 && $v3 <= 19798) ? 'ok' : "wrong ($v3)", "\n";
var_dump((new RedLock($servers))->getValidity('rl104'));  // another object holds nothing
$lock->unlock('rl104', $t);
var_dump($lock->getValidity('rl104'));

// ttl 2 ms: drift alone (2 ms + 1%) eats it. Each node said yes, so each must
// have been sent the undo (an EVALSHA of the release script).
$before = array_map(fn($c) => $c->info('commandstats')['cmdstat_evalsha'] ?? '', $clients);
var_dump($lock->lock('rl104-tiny', 2));
foreach ($clients as $i => $c) {
    $after = $c->info('commandstats')['cmdstat_evalsha'] ?? '';
    preg_match('/calls=(\d+)/', $before[$i], $b);
    preg_match('/calls=(\d+)/', $after, $a);
    echo "node $i undo sent: ", ((int)($a[1] ?? 0) - (int)($b[1] ?? 0)) === 1 ? 'yes' : 'no', ", key: ", $c->exists('lock:rl104-tiny'), "\n";
}
var_dump($lock->getValidity('rl104-tiny'));

// A large drift factor refuses what validity cannot cover.
$drifty = new RedLock($servers, 0, 1, ['drift_factor' => 0.49]);
var_dump($drifty->lock('rl104-drift', 3));
foreach ($clients as $i => $c) echo $c->exists('lock:rl104-drift');
echo "\n";
?>
--EXPECT--
int(0)
first: ok
after 300 ms: decreased
bool(true)
after extend: ok
int(0)
int(0)
NULL
node 0 undo sent: yes, key: 0
node 1 undo sent: yes, key: 0
node 2 undo sent: yes, key: 0
int(0)
NULL
000
