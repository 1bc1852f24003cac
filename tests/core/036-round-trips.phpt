--TEST--
One command per call: N lock+unlock cycles are N SET + N EVALSHA (its GET, DEL, LPOP), or where the server has its own compare-and-delete N SET + N DELEX/DELIFEQ + N EXISTS; no EVAL, no PING/SELECT/AUTH, nothing else
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

$srv = new RlTestServer();
$c = $srv->client();

/** calls per command since the last CONFIG RESETSTAT, our own CONFIG/INFO left out */
function commandstats(RlTestRedis $c): array
{
    $calls = [];
    foreach ($c->info('commandstats') as $name => $v) {
        if (preg_match('/^cmdstat_(.+)$/', $name, $m) && !preg_match('/^(config|info)\b/', $m[1])) {
            preg_match('/calls=(\d+)/', $v, $n);
            $calls[$m[1]] = (int)$n[1];
        }
    }
    ksort($calls);
    return $calls;
}

// the release: the script, or where the server has one its own compare-and-delete and EXISTS of the waiters' queue
$names = array_map('strtolower', (array)$c->cmd('COMMAND', 'LIST', 'FILTERBY', 'PATTERN', 'del*'));
$native = in_array('delifeq', $names) ? 'delifeq' : (in_array('delex', $names) ? 'delex' : null);
/** what k cycles should have sent, and how it is said */
function expected(?string $native, int $k): array
{
    $e = $native ? [$native => $k, 'exists' => $k, 'set' => $k] : ['del' => $k, 'evalsha' => $k, 'get' => $k, 'lpop' => $k, 'set' => $k];
    ksort($e);
    return $e;
}
function said(array $got, ?string $native, int $k): string
{
    return $got === expected($native, $k) ? ($native ? "SET, $native, EXISTS" : 'SET, EVALSHA (GET, DEL, LPOP)') . " x $k" : json_encode($got);
}

$lock = new RedisLock($srv->addr());
// Warm up: connects, and on this fresh server loads the release script once.
$t = $lock->lock('t036', 10000);
var_dump($lock->unlock('t036', $t));

$n = 50;
$c->cmd('CONFIG', 'RESETSTAT');
$before = (int)$c->info('stats')['total_commands_processed'];
$ok = 0;
for ($i = 0; $i < $n; $i++) {
    $t = $lock->lock('t036', 10000);
    $ok += is_string($t) && $lock->unlock('t036', $t);
}
$after = (int)$c->info('stats')['total_commands_processed'];
var_dump($ok);
// Per cycle: SET, EVALSHA, and the GET, DEL and LPOP (of the waiters'
// queue, to wake one) the release script runs (Redis counts commands run by
// scripts too). INFO is counted after it
// answers: the INFO that read $before is in $after, the one reading $after is not.
$per = $native ? 3 : 5;
echo "commands processed: ", $after - $before, " = {$per}N + 1: ", var_export($after - $before === $per * $n + 1, true), "\n";
echo said(commandstats($c), $native, $n), "\n";

echo "acquireLock/releaseLock:\n";
$c->cmd('CONFIG', 'RESETSTAT');
$m = 20;
$ok = 0;
for ($i = 0; $i < $m; $i++) {
    $ok += $lock->acquireLock('t036', 10) && $lock->releaseLock('t036');
}
var_dump($ok);
echo said(commandstats($c), $native, $m), "\n";

echo "a second object shares the pooled connection, no new handshake:\n";
$c->cmd('CONFIG', 'RESETSTAT');
$before = (int)$c->info('stats')['total_connections_received'];
$other = new RedisLock($srv->addr());
$t = $other->lock('t036', 10000);
var_dump($other->unlock('t036', $t));
var_dump((int)$c->info('stats')['total_connections_received'] - $before);
echo said(commandstats($c), $native, 1), "\n";
var_dump($c->exists('lock:t036'));
?>
--EXPECTF--
bool(true)
int(50)
commands processed: %d = %dN + 1: true
SET, %s x 50
acquireLock/releaseLock:
int(20)
SET, %s x 20
a second object shares the pooled connection, no new handshake:
bool(true)
int(0)
SET, %s x 1
int(0)
