--TEST--
A lock whose reply timed out (server stopped) is taken back when the node answers again, not left for its TTL
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer();
$lock = new RedisLock($srv->addr(), ['timeout' => rl_under_valgrind() ? 1.0 : 0.3]);
$t = $lock->lock('s064-warm', 1000);
$lock->unlock('s064-warm', $t);

$srv->pause();
try {
    $lock->lock('s064', 60000);
    echo "no exception\n";
} catch (RedisLockConnectionException $e) {
    echo get_class($e), ': ', str_replace($srv->addr(), 'NODE', $e->getMessage()), "\n";
}
$srv->resume();
$c = $srv->client();
// The stopped server ran our SET when it resumed: the key is there, for 60 s.
echo "applied after resume: ", rl_wait_until(fn() => $c->exists('lock:s064') === 1, 5) ? 'yes' : 'no', "\n";
usleep(1200000); // the node's fail-fast window passes
$t2 = $lock->lock('s064-next', 10000);   // the next command to the node takes the stale lock back first
echo "next lock works: ", $c->get('lock:s064-next') === $t2 ? 'yes' : 'no', "\n";
echo "stale lock taken back: ", $c->exists('lock:s064') === 0 ? 'yes' : 'no (PTTL ' . $c->pttl('lock:s064') . ')', "\n";
$other = new RedisLock($srv->addr());
echo "resource free again: ", is_string($other->lock('s064', 1000)) ? 'yes' : 'no', "\n";
?>
--EXPECTF--
RedisLockConnectionException: Redis node NODE: timed out: no reply within %d ms
applied after resume: yes
next lock works: yes
stale lock taken back: yes
resource free again: yes
