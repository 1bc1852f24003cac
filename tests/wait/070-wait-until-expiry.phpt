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
// held (60 s) while the calls that do not wait look; then its TTL is cut to
// 300 ms: the clock starts before the cut, so the lock cannot be had before
// 0.3 s have passed on it, however late this process runs
$th = $holder->lock("{$p}a", 60000);
var_dump(is_string($th));
var_dump($lock->lock("{$p}a", 30000));              // no wait: null at once
var_dump($lock->acquireLock("{$p}a", 1));           // one try
$t0 = hrtime(true);
$holder->extend("{$p}a", $th, 300);
$before = RedisLock::stats();
$t = $lock->lock("{$p}a", 30000, rl_under_valgrind() ? 120.0 : 60.0);
$s = (hrtime(true) - $t0) / 1e9;
$after = RedisLock::stats();
var_dump(is_string($t) && $t !== $th && $r->get("lock:{$p}a") === $t);
echo "not before the expiry: ", $s >= 0.25 ? 'yes' : "no ($s s)", "\n";
// nobody released it: the wait ended by the waiter's own look at the TTL
echo "woken ", $after['waits_woken'] - $before['waits_woken'], ", by its own look: ",
    $after['waits_rechecked'] - $before['waits_rechecked'] >= 1 ? 'yes' : 'no', "\n";
$ttl = $r->pttl("lock:{$p}a");
var_dump($ttl > 0 && $ttl <= 30000);
var_dump($holder->unlock("{$p}a", $th));            // the holder's token is dead
var_dump($r->get("lock:{$p}a") === $t);
var_dump($lock->unlock("{$p}a", $t), $r->exists("lock:{$p}a"));

echo "-- holder in another process releases once the waiter is queued (its TTL: 60 s)\n";
$child = rl_php_child_start(<<<PHP
    \$l = new RedisLock(rl_test_server(0));
    \$r = new RlTestRedis(rl_test_server(0));
    \$t = \$l->lock('{$p}b', 60000);
    echo "locked\\n";
    rl_wait_until(fn() => \$r->cmd('LLEN', rl_derived_key('lock:{$p}b', 'q')) === 1, 60.0);
    echo \$l->unlock('{$p}b', \$t) ? "released\\n" : "NOT released\\n";
    PHP);
rl_wait_until(fn() => $child->output() !== '' || !$child->isRunning(), 60.0);
var_dump($r->exists("lock:{$p}b"));
$t = $lock->lock("{$p}b", 30000, 60.0);
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
not before the expiry: yes
woken 0, by its own look: yes
bool(true)
bool(false)
bool(true)
bool(true)
int(0)
-- holder in another process releases once the waiter is queued (its TTL: 60 s)
int(1)
bool(true)
locked
released
bool(true)
int(0)
array(0) {
}
