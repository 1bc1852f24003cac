--TEST--
lock($r, $ttl, $wait) that cannot succeed (holder's TTL 60 s) returns null, not before $wait (and does not hang), leaving the holder's lock alone
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

// not before its wait: the product's promise; the upper bound only says it
// does not hang (a loaded machine may run this process late: no tighter bound)
$hang = rl_under_valgrind() ? 120.0 : 30.0;
$p = 'rl071-' . bin2hex(random_bytes(6)) . '-';
$server = rl_test_server(0);
$r = new RlTestRedis($server);
$holder = new RedisLock($server);
$lock = new RedisLock($server);
$th = $holder->lock("{$p}a", 60000);

foreach ([0.5, 1.2] as $wait) {
    $t0 = hrtime(true);
    $t = $lock->lock("{$p}a", 1000, $wait);
    $s = (hrtime(true) - $t0) / 1e9;
    var_dump($t);
    echo "wait $wait: ", $s < $wait ? "returned early, after $s s" : ($s < $hang ? "returned after it" : "hung $s s"), "\n";
}
var_dump($r->get("lock:{$p}a") === $th);
$ttl = $r->pttl("lock:{$p}a");
var_dump($ttl > 30000 && $ttl <= 60000);
var_dump($r->keys("lock:$p*") === ["lock:{$p}a"]);
var_dump($holder->unlock("{$p}a", $th), $r->exists("lock:{$p}a"));
?>
--EXPECT--
NULL
wait 0.5: returned after it
NULL
wait 1.2: returned after it
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
