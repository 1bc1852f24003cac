--TEST--
Waiting: a waiter is woken by the release, not by its next look at the lock
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/redislock_test.inc';

// The holder takes the lock for 30 s and releases it after 0.6 s. A waiter
// that only looked now and then (every 2 s at most, or at the TTL's end)
// would get it 1.4 s late or more; a woken one within a round trip or so.
// The bound leaves a loaded machine (CI's, beside the platform matrix) room.
$holder = rl_php_child_start(<<<'PHP'
$l = new RedisLock(rl_test_server(0));
$t = $l->lock('rl200', 30000);
echo "locked\n";
usleep(600000);
$l->unlock('rl200', $t);
echo "released at ", hrtime(true), "\n";
PHP);
rl_wait_until(fn() => str_contains($holder->output(), 'locked'), 30);
$lock = new RedisLock(rl_test_server(0));
$token = $lock->lock('rl200', 5000, 10.0);
$acquiredAt = hrtime(true);
[, $out] = $holder->wait();
preg_match('/released at (\d+)/', $out, $m);
$lateMs = ($acquiredAt - (int)$m[1]) / 1e6;
echo "acquired: ", is_string($token) ? 'yes' : 'no', "\n";
echo "after the release: ", $lateMs >= 0 ? 'yes' : "no ($lateMs ms)", "\n";
$bound = 1000;
echo "woken by it: ", $lateMs < $bound ? 'yes' : "no ($lateMs ms late)", "\n";
var_dump($lock->unlock('rl200', $token));
$r = new RlTestRedis(rl_test_server(0));
echo "keys left: ", count($r->keys('lock:rl200*')), "\n";
?>
--EXPECT--
acquired: yes
after the release: yes
woken by it: yes
bool(true)
keys left: 0
