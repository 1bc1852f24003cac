--TEST--
lock($r, $ttl, $wait) that cannot succeed (holder's TTL 10 s) returns null after about $wait, leaving the holder's lock alone
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$slack = rl_under_valgrind() ? 2.0 : 0.5;
$p = 'rl071-' . bin2hex(random_bytes(6)) . '-';
$server = rl_test_server(0);
$r = new RlTestRedis($server);
$holder = new RedisLock($server);
$lock = new RedisLock($server);
$th = $holder->lock("{$p}a", 10000);

foreach ([0.5, 1.2] as $wait) {
    $t0 = hrtime(true);
    $t = $lock->lock("{$p}a", 1000, $wait);
    $s = (hrtime(true) - $t0) / 1e9;
    var_dump($t);
    echo "wait $wait: ", ($s >= $wait && $s < $wait + $slack) ? "returned after about $wait s" : "returned after $s s", "\n";
}
var_dump($r->get("lock:{$p}a") === $th);
$ttl = $r->pttl("lock:{$p}a");
var_dump($ttl > 5000 && $ttl <= 10000);
var_dump($r->keys("lock:$p*") === ["lock:{$p}a"]);
var_dump($holder->unlock("{$p}a", $th), $r->exists("lock:{$p}a"));
?>
--EXPECT--
NULL
wait 0.5: returned after about 0.5 s
NULL
wait 1.2: returned after about 1.2 s
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
