--TEST--
A Redis error raised inside a lock script names the line of its file in src/lock/lua/ (the scripts go out line for line with their .lua files): a lock key that holds a list makes unlock() fail at release.lua's zscore
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t073');
$r->cmd('RPUSH', 'lock:t073', 'not a lock');
// the line the error must name: where release.lua asks ZSCORE of the key
$lua = file(__DIR__ . '/../../src/lock/lua/release.lua');
$line = null;
foreach ($lua as $i => $l) {
    if (str_contains($l, "redis.call('zscore'")) { $line = $i + 1; break; }
}
$lock = new RedisLock(rl_test_server(0));
try {
    $lock->unlock('t073', str_repeat('a', 32));
    echo "no error\n";
} catch (RedisLockException $e) {
    echo get_class($e), "\n";
    echo str_contains($e->getMessage(), 'WRONGTYPE') ? "WRONGTYPE\n" : "other: {$e->getMessage()}\n";
    preg_match('/@user_script:(\d+)/', $e->getMessage(), $m);
    echo ($m[1] ?? 'none') === (string)$line ? "names release.lua's line\n" : "names line " . ($m[1] ?? 'none') . ", release.lua's is $line\n";
}
$r->del('lock:t073');
?>
--EXPECT--
RedisLockException
WRONGTYPE
names release.lua's line
