--TEST--
Waiting: a wait that cannot succeed returns null after $wait; a dead holder's lock is taken soon after its TTL ends
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$holder = new RedisLock(rl_test_server(0), ['auto_release' => false]);
$t = $holder->lock('rl203', 10000);

$waiter = new RedisLock(rl_test_server(0));
$start = hrtime(true);
var_dump($waiter->lock('rl203', 1000, 0.5));
$took = (hrtime(true) - $start) / 1e9;
echo "returned after the wait: ", $took >= 0.5 ? 'yes' : "no ($took s)", "\n";
echo "not much later: ", $took < 0.5 + (rl_under_valgrind() ? 1.0 : 0.25) ? 'yes' : "no ($took s)", "\n";
echo "holder's key untouched: ", $r->get('lock:rl203') === $t ? 'yes' : 'no', "\n";

// A holder that died (killed, no release): the waiter gets the lock when
// the TTL runs out, not a polling interval later.
$child = rl_php_child_start(<<<'PHP'
$l = new RedisLock(rl_test_server(0));
$l->lock('rl203-dead', 700);
echo "locked\n";
sleep(30);
PHP);
rl_wait_until(fn() => str_contains($child->output(), 'locked'), 30);
$child->kill();
$pttl = $r->pttl('lock:rl203-dead');
$expiresAt = hrtime(true) + $pttl * 1e6;
$t2 = $waiter->lock('rl203-dead', 1000, 5.0);
$late = (hrtime(true) - $expiresAt) / 1e6;
echo "taken after the holder died: ", is_string($t2) ? 'yes' : 'no', "\n";
echo "within a few ms of expiry: ", ($late > -2 && $late < (rl_under_valgrind() ? 150 : 25)) ? 'yes' : "no ($late ms)", "\n";
$waiter->unlock('rl203-dead', $t2);
$holder->unlock('rl203', $t);
echo "keys left: ", count($r->keys('lock:rl203*')), "\n";
?>
--EXPECT--
NULL
returned after the wait: yes
not much later: yes
holder's key untouched: yes
taken after the holder died: yes
within a few ms of expiry: yes
keys left: 0
