--TEST--
One command per call: N lock+unlock cycles are N SET + N EVALSHA (its GET+DEL), no EVAL, no PING/SELECT/AUTH, nothing else
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
echo "commands processed: ", $after - $before, " = 5N + 1: ", var_export($after - $before === 5 * $n + 1, true), "\n";
var_dump(commandstats($c));

echo "acquireLock/releaseLock:\n";
$c->cmd('CONFIG', 'RESETSTAT');
$m = 20;
$ok = 0;
for ($i = 0; $i < $m; $i++) {
    $ok += $lock->acquireLock('t036', 10) && $lock->releaseLock('t036');
}
var_dump($ok);
var_dump(commandstats($c));

echo "a second object shares the pooled connection, no new handshake:\n";
$c->cmd('CONFIG', 'RESETSTAT');
$before = (int)$c->info('stats')['total_connections_received'];
$other = new RedisLock($srv->addr());
$t = $other->lock('t036', 10000);
var_dump($other->unlock('t036', $t));
var_dump((int)$c->info('stats')['total_connections_received'] - $before);
var_dump(commandstats($c));
var_dump($c->exists('lock:t036'));
?>
--EXPECT--
bool(true)
int(50)
commands processed: 251 = 5N + 1: true
array(5) {
  ["del"]=>
  int(50)
  ["evalsha"]=>
  int(50)
  ["get"]=>
  int(50)
  ["lpop"]=>
  int(50)
  ["set"]=>
  int(50)
}
acquireLock/releaseLock:
int(20)
array(5) {
  ["del"]=>
  int(20)
  ["evalsha"]=>
  int(20)
  ["get"]=>
  int(20)
  ["lpop"]=>
  int(20)
  ["set"]=>
  int(20)
}
a second object shares the pooled connection, no new handshake:
bool(true)
int(0)
array(5) {
  ["del"]=>
  int(1)
  ["evalsha"]=>
  int(1)
  ["get"]=>
  int(1)
  ["lpop"]=>
  int(1)
  ["set"]=>
  int(1)
}
int(0)
