--TEST--
Native compare-and-delete (a server with DELIFEQ or DELEX IFEQ): asked once per connection with COMMAND INFO behind its first lock command; a lock taken at its first look is released with it and EXISTS of the waiters' queue in one write (unlock, releaseLock, auto-release, the last re-entrant release, RedLock nodes); shared locks, permits, forceUnlock, a release by another object, a lock had after waiting and an expired lock go by the script; asked again after a reconnect (INFO commandstats)
--SKIPIF--
<?php
require __DIR__ . '/skipif.inc';
rl_skip_unless_redis_binary();
rl_skip_unless_servers(3);
if (rl_native_delete(new RlTestRedis(rl_test_server(0))) === null) {
    die('skip the server has neither DELIFEQ (Valkey 9.0+) nor DELEX (Redis 8.4+, Valkey 9.2+), by COMMAND INFO');
}
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/redislock_test.inc';

$srv = new RlTestServer();
$c = $srv->client();
$native = rl_native_delete($c);
$NATIVE = strtoupper($native);

/**
 * The calls since the last CONFIG RESETSTAT of the commands a cycle may use,
 * as "NAME n, ...". The test's own client uses none of them (it reads keys
 * with GET and KEYS); scripts' commands count too (a SET in a script).
 */
function calls(RlTestRedis $c, string $native, array $which = ['COMMAND INFO', 'SET', 'NATIVE', 'EXISTS', 'EVALSHA']): string
{
    $info = $c->info('commandstats');
    $out = [];
    foreach (['command|info' => 'COMMAND INFO', 'set' => 'SET', $native => 'NATIVE', 'exists' => 'EXISTS',
              'evalsha' => 'EVALSHA'] as $cmd => $name) {
        if (in_array($name, $which, true)) {
            $out[] = "$name " . (preg_match('/calls=(\d+)/', $info["cmdstat_$cmd"] ?? '', $m) ? $m[1] : 0);
        }
    }
    return implode(', ', $out);
}
$reset = fn() => $c->cmd('CONFIG', 'RESETSTAT');
$says = function (string $addr): string {
    foreach (RedisLock::stats()['connections'] as $r) {
        if ($r['endpoint'] === $addr && $r['role'] === 'command') {
            return $r['native_delete'];
        }
    }
    return '-';
};
// the release script, loaded once (the releases below by the script are one EVALSHA each)
(new RedisLock($srv->addr(), ['persistent' => false]))->unlock('n640', 'no-such-token');

echo "-- the first cycle on a new connection\n";
$reset();
$l = new RedisLock($srv->addr());
$t = $l->lock('n640', 10000);
var_dump($l->unlock('n640', $t), $c->get('lock:n640'));
echo calls($c, $native), "\n";
echo "the connection says: ", $says($srv->addr()) === $NATIVE ? 'NATIVE' : $says($srv->addr()), "\n";

echo "-- 20 cycles, acquireLock/releaseLock, auto-release, re-entry\n";
$reset();
$ok = 0;
for ($i = 0; $i < 20; $i++) {
    $t = $l->lock('n640', 10000);
    $ok += $l->unlock('n640', $t);
}
for ($i = 0; $i < 5; $i++) {
    $ok += $l->acquireLock('n640', 10) && $l->releaseLock('n640');
}
$x = new RedisLock($srv->addr());
$x->lock('n640-auto', 10000);
unset($x);
$t = $l->lock('n640', 10000);
$ok += $l->lock('n640', 10000) === $t && $l->unlock('n640', $t) && $c->get('lock:n640') === $t;
$ok += $l->unlock('n640', $t);
var_dump($ok, $c->keys('lock:*'));
echo calls($c, $native), "\n";

echo "-- by the script\n";
$reset();
$t = $l->lockShared('n640-s', 10000);
var_dump($l->unlock('n640-s', $t));
$t = $l->acquirePermit('n640-p', 2, 10000);
var_dump($l->unlock('n640-p', $t));
$l->lock('n640-f', 10000);
var_dump($l->forceUnlock('n640-f'));
$t = $l->lock('n640-o', 10000);
var_dump((new RedisLock($srv->addr()))->unlock('n640-o', $t));
// had after waiting for the holder's 200 ms: contention, so waiters may follow
$holder = new RedisLock($srv->addr());
$holder->lock('n640-w', 200);
$t = $l->lock('n640-w', 10000, 5.0);
var_dump(is_string($t), $l->unlock('n640-w', $t));
echo calls($c, $native, ['COMMAND INFO', 'NATIVE']), "\n";

echo "-- an expired lock: the native delete finds nothing, the script says so\n";
$reset();
$t = $l->lock('n640-e', 50);
usleep(150000);
var_dump($l->unlock('n640-e', $t));
echo calls($c, $native), "\n";

echo "-- asked again after a reconnect\n";
var_dump($c->clientKillAllExceptMe() >= 1);
$reset();
// the lock finds the socket closed (or sends on it within 20 ms of its last
// reply, loses it and goes again, as the acquire script): a new socket
$t = $l->lock('n640', 10000);
var_dump($l->unlock('n640', $t));
echo calls($c, $native, ['COMMAND INFO', 'NATIVE', 'EXISTS']), "\n";
$row = array_values(array_filter(RedisLock::stats()['connections'], fn($r) => $r['endpoint'] === $srv->addr() && $r['role'] === 'command'))[0];
echo "reconnected: ", var_export($row['reconnects'] > 0, true), "; the connection says: ",
    $row['native_delete'] === $NATIVE ? 'NATIVE' : $row['native_delete'], "\n";

echo "-- an ACL user without the command: told NOPERM, the release goes by the script in the same call, and the connection stops using it\n";
$c->cmd('ACL', 'SETUSER', 'nodel640', 'on', '>pw640', '~*', '+@all', "-$native");
$u = new RedisLock($srv->addr(), ['username' => 'nodel640', 'password' => 'pw640']);
$reset();
$ok = 0;
for ($i = 0; $i < 3; $i++) {
    $t = $u->lock('n640-acl', 10000);
    $ok += $u->unlock('n640-acl', $t);
}
$v = $c->info('commandstats')["cmdstat_$native"] ?? '';
echo "released: $ok; tried: ", preg_match('/rejected_calls=(\d+)/', $v, $m) ? $m[1] : (preg_match('/calls=(\d+)/', $v, $m) ? $m[1] : 0),
    "; ", calls($c, $native, ['EVALSHA']), "\n";
foreach (RedisLock::stats()['connections'] as $row) {
    if ($row['endpoint'] === $srv->addr() && $row['role'] === 'command' && $row['connects'] === 1 && $row['native_delete'] === 'none') {
        echo "that connection says: none\n";
    }
}

echo "-- RedLock: each node\n";
$nodes = array_map(fn($i) => new RlTestRedis(rl_test_server($i)), [0, 1, 2]);
$natives = array_map(fn($n) => rl_native_delete($n), $nodes);
foreach ($nodes as $n) {
    $n->cmd('CONFIG', 'RESETSTAT');
}
$rl = new RedLock([rl_test_server(0), rl_test_server(1), rl_test_server(2)]);
for ($i = 0; $i < 3; $i++) {
    $t = $rl->lock('n640-rl', 10000);
    $rl->unlock('n640-rl', $t);
}
foreach ($nodes as $i => $n) {
    // the acquire decides at a quorum: a node whose answers (SET's, COMMAND
    // INFO's) came later may not be known yet at the first release, which
    // then goes by the script there
    $info = $n->info('commandstats');
    $count = fn($cmd) => preg_match('/calls=(\d+)/', $info["cmdstat_$cmd"] ?? '', $m) ? (int)$m[1] : 0;
    echo "node $i: COMMAND INFO ", $count('command|info'), ", releases ", $count($natives[$i]) + $count('evalsha'),
        ", native at least 2: ", var_export($count($natives[$i]) >= 2, true), "\n";
}
?>
--EXPECT--
-- the first cycle on a new connection
bool(true)
NULL
COMMAND INFO 1, SET 1, NATIVE 1, EXISTS 1, EVALSHA 0
the connection says: NATIVE
-- 20 cycles, acquireLock/releaseLock, auto-release, re-entry
int(27)
array(0) {
}
COMMAND INFO 0, SET 27, NATIVE 27, EXISTS 27, EVALSHA 1
-- by the script
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
COMMAND INFO 0, NATIVE 0
-- an expired lock: the native delete finds nothing, the script says so
bool(false)
COMMAND INFO 0, SET 1, NATIVE 1, EXISTS 1, EVALSHA 1
-- asked again after a reconnect
bool(true)
bool(true)
COMMAND INFO 1, NATIVE 1, EXISTS 1
reconnected: true; the connection says: NATIVE
-- an ACL user without the command: told NOPERM, the release goes by the script in the same call, and the connection stops using it
released: 3; tried: 1; EVALSHA 3
that connection says: none
-- RedLock: each node
node 0: COMMAND INFO 1, releases 3, native at least 2: true
node 1: COMMAND INFO 1, releases 3, native at least 2: true
node 2: COMMAND INFO 1, releases 3, native at least 2: true
