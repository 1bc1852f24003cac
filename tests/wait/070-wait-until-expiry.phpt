--TEST--
lock($r, $ttl, $wait): waits for a holder's lock to expire (TTL 300 ms) or to be released, and returns a token that is in Redis
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$p = 'rl070-' . bin2hex(random_bytes(6)) . '-';
$server = rl_test_server(0);
$r = new RlTestRedis($server);
$holder = new RedisLock($server);
$lock = new RedisLock($server);

echo "-- holder's TTL is 300 ms\n";
$th = $holder->lock("{$p}a", 300);
var_dump(is_string($th));
var_dump($lock->lock("{$p}a", 1000));               // no wait: null at once
var_dump($lock->acquireLock("{$p}a", 1));           // one try
$t0 = hrtime(true);
$t = $lock->lock("{$p}a", 1000, 2.0);
$s = (hrtime(true) - $t0) / 1e9;
var_dump(is_string($t) && $t !== $th && $r->get("lock:{$p}a") === $t);
echo "got it after the expiry, within the wait: ", ($s >= 0.25 && $s < 2.0) ? 'yes' : "no ($s s)", "\n";
$ttl = $r->pttl("lock:{$p}a");
var_dump($ttl > 0 && $ttl <= 1000);
var_dump($holder->unlock("{$p}a", $th));            // the holder's token is dead
var_dump($r->get("lock:{$p}a") === $t);
var_dump($lock->unlock("{$p}a", $t), $r->exists("lock:{$p}a"));

echo "-- holder in another process releases after 0.4 s (its TTL: 60 s)\n";
$child = rl_php_child_start(<<<PHP
    \$l = new RedisLock(rl_test_server(0));
    \$t = \$l->lock('{$p}b', 60000);
    echo "locked\\n";
    usleep(400000);
    echo \$l->unlock('{$p}b', \$t) ? "released\\n" : "NOT released\\n";
    PHP);
rl_wait_until(fn() => $child->output() !== '' || !$child->isRunning(), 60.0);
var_dump($r->exists("lock:{$p}b"));
$t = $lock->lock("{$p}b", 5000, 10.0);
var_dump(is_string($t) && $r->get("lock:{$p}b") === $t);
[$code, $out, $err] = $child->wait(60.0);
echo $out, $err;
var_dump($lock->unlock("{$p}b", $t), $r->exists("lock:{$p}b"));
var_dump($r->keys("lock:$p*"));
?>
--EXPECT--
-- holder's TTL is 300 ms
bool(true)
NULL
bool(false)
bool(true)
got it after the expiry, within the wait: yes
bool(true)
bool(false)
bool(true)
bool(true)
int(0)
-- holder in another process releases after 0.4 s (its TTL: 60 s)
int(1)
bool(true)
locked
released
bool(true)
int(0)
array(0) {
}
