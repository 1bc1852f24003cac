--TEST--
Waiting: a wait that cannot succeed returns null, not before $wait; a dead holder's lock is taken after its TTL ends (not before), by the waiter's own look at the TTL (no wake: nobody released it)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$holder = new RedisLock(rl_test_server(0), ['auto_release' => false]);
$t = $holder->lock('rl203', 60000);

$waiter = new RedisLock(rl_test_server(0));
$start = hrtime(true);
var_dump($waiter->lock('rl203', 1000, 0.5));
$took = (hrtime(true) - $start) / 1e9;
echo "returned after the wait: ", $took >= 0.5 ? 'yes' : "no ($took s)", "\n";
// how much later is the machine's load; only a hang is the product's
echo "did not hang: ", $took < (rl_under_valgrind() ? 120 : 30) ? 'yes' : "no ($took s)", "\n";
echo "holder's key untouched: ", $r->get('lock:rl203') === $t ? 'yes' : 'no', "\n";

// A holder that died (killed, no release): the waiter gets the lock when
// the TTL runs out. That it looks at the TTL, not a polling interval
// later, is unit_wait.c's test_wait_recheck_at_pttl (a clock of its own);
// here: its wait ended by its own look (rechecked), no wake, no error, and
// not before the key expired.
$child = rl_php_child_start(<<<'PHP'
$l = new RedisLock(rl_test_server(0));
$l->lock('rl203-dead', 700);
echo "locked\n";
sleep(30);
PHP);
rl_wait_until(fn() => str_contains($child->output(), 'locked'), 30);
$child->kill();
// the key expires no sooner than its PTTL after this moment (read before the PTTL)
$asked = hrtime(true);
$pttl = $r->pttl('lock:rl203-dead');
$before = RedisLock::stats();
$t2 = $waiter->lock('rl203-dead', 30000, rl_under_valgrind() ? 120.0 : 60.0);
$after = RedisLock::stats();
$at = (hrtime(true) - $asked) / 1e6;
echo "taken after the holder died: ", is_string($t2) ? 'yes' : 'no', "\n";
echo "not before its expiry: ", $pttl > 0 && $at >= $pttl - 2 ? 'yes' : "no (pttl $pttl ms, had at $at ms)", "\n";
printf("woken %d, rechecked: %s, wake errors %d\n", $after['waits_woken'] - $before['waits_woken'],
    $after['waits_rechecked'] - $before['waits_rechecked'] >= 1 ? 'yes' : 'no', $after['wake_errors'] - $before['wake_errors']);
$waiter->unlock('rl203-dead', $t2);
$holder->unlock('rl203', $t);
echo "keys left: ", count($r->keys('lock:rl203*')), "\n";
?>
--EXPECT--
NULL
returned after the wait: yes
did not hang: yes
holder's key untouched: yes
taken after the holder died: yes
not before its expiry: yes
woken 0, rechecked: yes, wake errors 0
keys left: 0
