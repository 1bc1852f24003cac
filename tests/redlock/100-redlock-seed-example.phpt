--TEST--
RedLock: the design's quorum example works as written
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$servers = rl_test_servers(3);
$redLock = new RedLock($servers);              // retryDelay = 200 ms, retryCount = 3
$token = $redLock->lock('my_resource', 5000);  // TTL in ms; token string or null
var_dump(is_string($token) && preg_match('/^[0-9a-f]{32}$/', $token) === 1);
foreach ($servers as $i => $s) {
    $r = new RlTestRedis("{$s['host']}:{$s['port']}");
    $pttl = $r->pttl('lock:my_resource');
    echo "node $i: ", $r->get('lock:my_resource') === $token ? 'ours' : 'NOT ours', ', ttl ',
        ($pttl > 4000 && $pttl <= 5000) ? 'ok' : "wrong ($pttl)", "\n";
}
$other = new RedLock($servers, 10, 2);
var_dump($other->lock('my_resource', 5000));
if ($token) {
    try { /* critical section */ } finally { var_dump($redLock->unlock('my_resource', $token)); }
}
foreach ($servers as $i => $s) {
    echo "node $i exists: ", (new RlTestRedis("{$s['host']}:{$s['port']}"))->exists('lock:my_resource'), "\n";
}
$t2 = $other->lock('my_resource', 5000);
var_dump(is_string($t2) && $t2 !== $token, $other->unlock('my_resource', $t2));
?>
--EXPECT--
bool(true)
node 0: ours, ttl ok
node 1: ours, ttl ok
node 2: ours, ttl ok
NULL
bool(true)
node 0 exists: 0
node 1 exists: 0
node 2 exists: 0
bool(true)
bool(true)
