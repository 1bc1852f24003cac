--TEST--
INI redislock.timeout (float seconds) and option 'timeout' (overrides the INI); a node benched for max(1 s, timeout) after a timeout is still asked when it is the only node (the quorum cannot be had without it)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--INI--
redislock.timeout=2.0
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$vg = rl_under_valgrind();
$server = new RlTestServer();
$port = (string)$server->port();
$r = $server->client();

$call = function (callable $f) use ($port) {
    $t0 = hrtime(true);
    try {
        $res = var_export($f(), true);
    } catch (RedisLockException $e) {
        $res = get_class($e) . ': ' . str_replace($port, 'PORT', $e->getMessage());
    }
    return [$res, (hrtime(true) - $t0) / 1e9];
};
$sleepUntil = function (int $t0, float $s) {
    $left = $s - (hrtime(true) - $t0) / 1e9;
    if ($left > 0) {
        usleep((int)($left * 1e6));
    }
};

$lock = new RedisLock($server->addr());       // timeout from the INI: 2.0 s
$ta = $lock->lock('a', 60000);
var_dump($r->get('lock:a') === $ta);

echo "-- option 'timeout' => 0.3 (own connection) while paused\n";
$server->pause();
[$res, $s] = $call(fn() => (new RedisLock($server->addr(), ['timeout' => 0.3, 'persistent' => false]))->lock('b', 60000));
echo $res, "\n";
echo "about 0.3 s: ", ($s >= 0.25 && $s < ($vg ? 5.0 : 1.5)) ? 'yes' : "no ($s s)", "\n";

echo "-- the INI's 2.0 s\n";
[$res, $s] = $call(fn() => $lock->lock('b', 60000));
$failedAt = hrtime(true);
echo $res, "\n";
echo "about 2 s: ", ($s >= 1.9 && $s < ($vg ? 8.0 : 4.0)) ? 'yes' : "no ($s s)", "\n";
$server->resume();

echo "-- 1.4 s later, server answering again, inside the 2 s window: the only node, so asked\n";
$sleepUntil($failedAt, 1.4);
[$res] = $call(fn() => $lock->lock('b', 60000));
var_dump($r->get('lock:b') === trim($res, "'"));

echo "-- 2.4 s later: asked again\n";
$sleepUntil($failedAt, 2.4);
[$res] = $call(fn() => $lock->lock('c', 60000));
var_dump($r->get('lock:c') === trim($res, "'"));
var_dump($lock->unlock('a', $ta), $r->exists('lock:a'));
?>
--EXPECTF--
bool(true)
-- option 'timeout' => 0.3 (own connection) while paused
RedisLockConnectionException: Redis node 127.0.0.1:PORT: %s
about 0.3 s: yes
-- the INI's 2.0 s
RedisLockConnectionException: Redis node 127.0.0.1:PORT: %s
about 2 s: yes
-- 1.4 s later, server answering again, inside the 2 s window: the only node, so asked
bool(true)
-- 2.4 s later: asked again
bool(true)
bool(true)
int(0)
