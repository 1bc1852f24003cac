--TEST--
One command per call: N lock+unlock cycles are N SET + N EVALSHA (its GET, DEL, LPOP), or on a server with its own compare-and-delete N SET + N DELIFEQ/DELEX + N EXISTS (one write); no EVAL, no PING/SELECT/AUTH, nothing else
--SKIPIF--
<?php
require __DIR__ . '/skipif.inc';
rl_skip_unless_redis_binary();
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/redislock_test.inc';

$srv = new RlTestServer();
$c = $srv->client();
$native = rl_native_delete($c);

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

/**
 * What N cycles cost: SET, EVALSHA, and the GET, DEL and LPOP (of the
 * waiters' queue, to wake one) the release script runs (Redis counts
 * commands run by scripts too); on a server with its own compare-and-delete
 * (a lock taken at its first look, nobody waiting) SET, DELIFEQ or DELEX,
 * and EXISTS of the waiters' queue.
 */
function per_cycle(?string $native, int $n): array
{
    $want = $native ? [$native => $n, 'exists' => $n, 'set' => $n]
                    : ['del' => $n, 'evalsha' => $n, 'get' => $n, 'lpop' => $n, 'set' => $n];
    ksort($want);
    return $want;
}

function check(array $got, array $want): void
{
    echo $got === $want ? "as expected\n" : "got " . json_encode($got) . ", expected " . json_encode($want) . "\n";
}

$lock = new RedisLock($srv->addr());
// Warm up: connects, asks once which compare-and-delete the server has
// (COMMAND INFO), and on this fresh server loads the release script once.
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
// INFO is counted after it answers: the INFO that read $before is in
// $after, the one reading $after is not.
$per = array_sum(per_cycle($native, 1));
echo "commands processed: ", var_export($after - $before === $per * $n + 1, true), "\n";
check(commandstats($c), per_cycle($native, $n));

echo "acquireLock/releaseLock:\n";
$c->cmd('CONFIG', 'RESETSTAT');
$m = 20;
$ok = 0;
for ($i = 0; $i < $m; $i++) {
    $ok += $lock->acquireLock('t036', 10) && $lock->releaseLock('t036');
}
var_dump($ok);
check(commandstats($c), per_cycle($native, $m));

echo "a second object shares the pooled connection, no new handshake (nor COMMAND INFO):\n";
$c->cmd('CONFIG', 'RESETSTAT');
$before = (int)$c->info('stats')['total_connections_received'];
$other = new RedisLock($srv->addr());
$t = $other->lock('t036', 10000);
var_dump($other->unlock('t036', $t));
var_dump((int)$c->info('stats')['total_connections_received'] - $before);
check(commandstats($c), per_cycle($native, 1));
var_dump($c->exists('lock:t036'));
?>
--EXPECT--
bool(true)
int(50)
commands processed: true
as expected
acquireLock/releaseLock:
int(20)
as expected
a second object shares the pooled connection, no new handshake (nor COMMAND INFO):
bool(true)
int(0)
as expected
int(0)
