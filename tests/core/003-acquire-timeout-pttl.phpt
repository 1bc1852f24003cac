--TEST--
acquireLock(): the timeout is in seconds and becomes the key's PTTL; the default is 10 s
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$lock = new RedisLock(rl_test_server(0));

foreach ([1, 5, 120] as $timeout) {
    $res = "t003-res-$timeout";
    $r->del("lock:$res");
    var_dump($lock->acquireLock($res, $timeout));
    $pttl = $r->pttl("lock:$res");
    // About $timeout * 1000 ms: a little may have passed since.
    echo "$timeout s: ", ($pttl > 0 && $pttl <= $timeout * 1000 && $pttl > $timeout * 1000 - 2000) ? 'ok' : "PTTL $pttl", "\n";
    var_dump((bool)preg_match('/^[0-9a-f]{32}$/', $r->get("lock:$res")));
    var_dump($lock->releaseLock($res));
    var_dump($r->exists("lock:$res"));
}

// Default: 10 seconds.
$r->del('lock:t003-default');
var_dump($lock->acquireLock('t003-default'));
$pttl = $r->pttl('lock:t003-default');
echo "default: ", ($pttl <= 10000 && $pttl > 8000) ? 'ok' : "PTTL $pttl", "\n";
var_dump($lock->releaseLock('t003-default'));
var_dump($r->exists('lock:t003-default'));
?>
--EXPECT--
bool(true)
1 s: ok
bool(true)
bool(true)
int(0)
bool(true)
5 s: ok
bool(true)
bool(true)
int(0)
bool(true)
120 s: ok
bool(true)
bool(true)
int(0)
bool(true)
default: ok
bool(true)
int(0)
