--TEST--
lockMany()'s try is the server's MSETEX NX PX where it has it (COMMAND INFO says so: Redis 8.4, Valkey 9.1; learnt in a new connection's first write, no round trip), else the script; a user whose ACL forbids MSETEX gets the script (once refused, never asked again); its result is the same either way, and a waiter still queues by the script
--EXTENSIONS--
redislock
--INI--
pcre.jit=0
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$server = rl_test_server(0);
$r = new RlTestRedis($server);
$info = $r->cmd('COMMAND', 'INFO', 'MSETEX');
$has = is_array($info) && ($info[0] ?? null) !== null;
$calls = function (string $cmd) use ($r): int {
    preg_match("/^cmdstat_$cmd:calls=(\\d+)/m", $r->cmd('INFO', 'commandstats'), $m);
    return (int)($m[1] ?? 0);
};
$r->del('lock:a826', 'lock:b826');

$l = new RedisLock($server, ['persistent' => false]);     // a connection of its own: it asks
$l->unlock('warm826', (string)$l->lock('warm826', 1000));  // its first write carries the question
[$m0, $e0] = [$calls('msetex'), $calls('evalsha') + $calls('eval')];
$t = $l->lockMany(['a826', 'b826'], 30000);
[$m1, $e1] = [$calls('msetex'), $calls('evalsha') + $calls('eval')];
echo "taken: ", is_string($t) && $r->get('lock:a826') === $t && $r->get('lock:b826') === $t ? 'yes' : 'no', "\n";
echo "by ", $has ? ($m1 - $m0 === 1 && $e1 === $e0 ? 'MSETEX where the server has it' : "NOT MSETEX ($m0 $m1 $e0 $e1)")
                 : ($m1 === $m0 && $e1 > $e0 ? 'MSETEX where the server has it' : "NOT the script ($e0 $e1)"), "\n";
$other = new RedisLock($server, ['persistent' => false]);
$other->unlock('warm826', (string)$other->lock('warm826', 1000));
var_dump($other->lockMany(['b826', 'c826'], 30000));              // held: none taken, by either form
echo "c826 taken: ", $r->get('lock:c826') === null ? 'no' : 'yes', "\n";
var_dump($l->unlockMany(['a826', 'b826'], $t));

echo "-- an ACL that forbids MSETEX\n";
$pass = 'p826-' . bin2hex(random_bytes(4));
$r->cmd('ACL', 'SETUSER', 'u826', 'on', ">$pass", '~*', '+@all', ...($has ? ['-msetex'] : []));
$u = new RedisLock($server, ['persistent' => false, 'username' => 'u826', 'password' => $pass]);
$u->unlock('warm826', (string)$u->lock('warm826', 1000));
$t = $u->lockMany(['a826', 'b826'], 30000);
echo "taken: ", is_string($t) ? 'yes' : 'no', "\n";
var_dump($u->unlockMany(['a826', 'b826'], $t));
$t = $u->lockMany(['a826', 'b826'], 30000);
echo "again: ", is_string($t) ? 'yes' : 'no', "\n";
$u->unlockMany(['a826', 'b826'], $t);
$r->cmd('ACL', 'DELUSER', 'u826');
echo "keys left: ", count($r->cmd('KEYS', '*826*')), "\n";
?>
--EXPECT--
taken: yes
by MSETEX where the server has it
NULL
c826 taken: no
bool(true)
-- an ACL that forbids MSETEX
taken: yes
bool(true)
again: yes
keys left: 0
