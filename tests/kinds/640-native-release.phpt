--TEST--
Native release: where the server has DELEX (Redis 8.4+) or DELIFEQ (Valkey 9.0+), unlock() of a lock this object holds is that command and EXISTS of the waiters' queue, no script; shared locks, permits, forceUnlock(), another's token and an expired lock keep the script's answers; a command refused by ACL falls back to the script once and is not sent again on that connection
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
$names = (new RlTestRedis(rl_test_server(0)))->cmd('COMMAND', 'LIST', 'FILTERBY', 'PATTERN', '[d]*e[xq]');
if (!array_intersect(array_map('strtolower', (array)$names), ['delex', 'delifeq'])) {
    die('skip the server has neither DELEX (Redis 8.4+) nor DELIFEQ (Valkey 9.0+): every release is the script there');
}
?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

// Private server: its command counts are this test's alone.
$srv = new RlTestServer();
$r = $srv->client();
$native = in_array('delifeq', array_map('strtolower', (array)$r->cmd('COMMAND', 'LIST', 'FILTERBY', 'PATTERN', 'delifeq'))) ? 'delifeq' : 'delex';

/** calls (and rejected calls) of each command since the last look (no regex: PCRE JIT is noise under valgrind) */
function rl640_delta(RlTestRedis $r): array
{
    static $before = [];
    $now = [];
    foreach (explode("\r\n", $r->cmd('INFO', 'commandstats')) as $line) {
        if (!str_starts_with($line, 'cmdstat_')) continue;
        [$name, $fields] = explode(':', substr($line, 8), 2);
        foreach (explode(',', $fields) as $f) {
            [$k, $v] = explode('=', $f, 2);
            if ($k === 'calls' || $k === 'rejected_calls') $now["$name.$k"] = (int)$v;
        }
    }
    $d = [];
    foreach ($now as $k => $v) $d[$k] = $v - ($before[$k] ?? 0);
    $before = $now;
    return $d;
}
function rl640_show(string $what, array $d, string $native): void
{
    echo "$what: native ", $d["$native.calls"] ?? 0, ', exists ', $d['exists.calls'] ?? 0,
        ', scripts ', ($d['evalsha.calls'] ?? 0) + ($d['eval.calls'] ?? 0) > 0 ? 'yes' : 'none', "\n";
}

$l = new RedisLock($srv->addr());
$t = $l->lock('n640', 5000); // the connection's first write asked what the server has
rl640_delta($r);
var_dump($l->unlock('n640', $t));
rl640_show('first release', rl640_delta($r), $native);
$ok = 0;
for ($i = 0; $i < 20; $i++) {
    $t = $l->lock("n640-$i", 5000);
    $ok += $l->unlock("n640-$i", $t) === true;
}
$d = rl640_delta($r);
echo "20 cycles: $ok released; ";
rl640_show('releases', $d, $native);

echo "-- what the script keeps\n";
$t = $l->lockShared('n640-s', 5000);
rl640_delta($r);
var_dump($l->unlock('n640-s', $t));
rl640_show('shared lock', rl640_delta($r), $native);
$t = $l->acquirePermit('n640-p', 2, 5000);
rl640_delta($r);
var_dump($l->unlock('n640-p', $t));
rl640_show('permit', rl640_delta($r), $native);
$l->lock('n640-f', 5000);
rl640_delta($r);
var_dump($l->forceUnlock('n640-f'));
rl640_show('forceUnlock', rl640_delta($r), $native);
$other = new RedisLock($srv->addr());
$t = $other->lock('n640-o', 5000);
rl640_delta($r);
var_dump($l->unlock('n640-o', $t)); // a token this object does not hold (its kind is not known here): released all the same
rl640_show("another's token", rl640_delta($r), $native);
var_dump($other->unlock('n640-o', $t));
rl640_delta($r);

echo "-- expired: the native command says 0, as the script would\n";
$t = $l->lock('n640-e', 5000);
$r->del('lock:n640-e');
$expiredBefore = RedisLock::stats()['expired'];
rl640_delta($r);
var_dump($l->unlock('n640-e', $t));
rl640_show('expired', rl640_delta($r), $native);
echo "counted expired: ", RedisLock::stats()['expired'] - $expiredBefore, "\n";
echo "keys left: ", count($r->keys('lock:n640*')), "\n";

echo "-- refused by ACL: the script instead, and the command not sent again on that connection\n";
$r->cmd('ACL', 'SETUSER', 'u640', 'on', '>pw640', '~*', '&*', '+@all', "-$native");
$acl = new RedisLock("redis://u640:pw640@" . $srv->addr());
$ok = 0;
$t = $acl->lock('n640-a0', 5000);
rl640_delta($r);
for ($i = 0; $i < 5; $i++) {
    $t = $i ? $acl->lock("n640-a$i", 5000) : $t;
    $ok += $acl->unlock("n640-a$i", $t) === true;
}
$d = rl640_delta($r);
echo "5 cycles: $ok released; refused ", $d["$native.rejected_calls"] ?? 0, ', scripts ', ($d['evalsha.calls'] ?? 0) + ($d['eval.calls'] ?? 0), "\n";
echo "keys left: ", count($r->keys('lock:n640*')), "\n";
?>
--EXPECT--
bool(true)
first release: native 1, exists 1, scripts none
20 cycles: 20 released; releases: native 20, exists 20, scripts none
-- what the script keeps
bool(true)
shared lock: native 0, exists 0, scripts yes
bool(true)
permit: native 0, exists 0, scripts yes
bool(true)
forceUnlock: native 0, exists 0, scripts yes
bool(true)
another's token: native 0, exists 0, scripts yes
bool(false)
-- expired: the native command says 0, as the script would
bool(false)
expired: native 1, exists 1, scripts none
counted expired: 1
keys left: 0
-- refused by ACL: the script instead, and the command not sent again on that connection
5 cycles: 5 released; refused 1, scripts 5
keys left: 0
