--TEST--
isLocked($resource) asks Redis (a quorum for RedLock) whether anyone holds the resource: a lock, a shared lock or a permit, taken by any object or process; expired and released locks are not held; a RedLock with too few nodes up is an exception naming them; bad input is an error
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:i803', 'lock:i803-s', 'lock:i803-p', 'lock:i803-x');
$a = new RedisLock(rl_test_server(0));
$b = new RedisLock(rl_test_server(0));

echo "-- a lock, seen by another object\n";
var_dump($b->isLocked('i803'));
$t = $a->lock('i803', 5000);
var_dump($b->isLocked('i803'), $a->isLocked('i803'));
$a->unlock('i803', $t);
var_dump($b->isLocked('i803'));

echo "-- taken in another process\n";
$child = rl_php_child_start('
    $l = new RedisLock(' . var_export(rl_test_server(0), true) . ');
    $l->lock("i803", 30000);
    echo "held\n";
    sleep(60);
');
rl_wait_until(fn() => $r->exists('lock:i803') === 1, 30.0);
var_dump($b->isLocked('i803'));
$child->kill();
$b->forceUnlock('i803');
var_dump($b->isLocked('i803'));

echo "-- expired\n";
$a->lock('i803', 50);
usleep(120000);
var_dump($b->isLocked('i803'));

echo "-- shared locks and permits\n";
$s1 = $a->lockShared('i803-s', 5000);
$s2 = $b->lockShared('i803-s', 80);
var_dump($b->isLocked('i803-s'));
$a->unlock('i803-s', $s1);
var_dump($b->isLocked('i803-s'));                 // b's reader still holds it
usleep(150000);
var_dump($b->isLocked('i803-s'));                 // and its TTL ran out
$p = $a->acquirePermit('i803-p', 3, 5000);
var_dump($b->isLocked('i803-p'));
$a->unlock('i803-p', $p);
var_dump($b->isLocked('i803-p'));

echo "-- a key that is not a lock of ours but holds a value\n";
$r->cmd('SET', 'lock:i803-x', 'something');
var_dump($b->isLocked('i803-x'));
$r->del('lock:i803-x');

echo "-- RedLock: a quorum answers\n";
$rl = new RedLock(rl_test_servers(3), 10, 1);
$t = $rl->lock('i803', 5000);
var_dump($rl->isLocked('i803'), (new RedLock(rl_test_servers(3)))->isLocked('i803'));
(new RlTestRedis(rl_test_server(0)))->del('lock:i803');
var_dump($rl->isLocked('i803'));                  // still on 2 of 3
(new RlTestRedis(rl_test_server(1)))->del('lock:i803');
var_dump($rl->isLocked('i803'));                  // on 1 of 3: not locked
$rl->forceUnlock('i803');

$down = new RlTestServer();
$port = $down->port();
$closed = rl_free_port();
$three = [rl_test_server(0), $down->addr(), "127.0.0.1:$closed"];
$rl3 = new RedLock($three, 10, 0, ['connect_timeout' => 0.5]);
$down->stop();
try {
    $rl3->isLocked('i803');
    echo "no exception\n";
} catch (RedisLockException $e) {
    echo get_class($e), ": ", str_replace(["127.0.0.1:$port", "127.0.0.1:$closed"], ['DOWN', 'CLOSED'], $e->getMessage()), "\n";
}

echo "-- bad input\n";
try { $a->isLocked(''); } catch (ValueError $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { $a->isLocked(); } catch (ArgumentCountError $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { $a->isLocked('i803', 1); } catch (ArgumentCountError $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
echo "done\n";
?>
--EXPECTF--
-- a lock, seen by another object
bool(false)
bool(true)
bool(true)
bool(false)
-- taken in another process
bool(true)
bool(false)
-- expired
bool(false)
-- shared locks and permits
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
-- a key that is not a lock of ours but holds a value
bool(true)
-- RedLock: a quorum answers
bool(true)
bool(true)
bool(true)
bool(false)
RedisLockConnectionException: 2 of 3 Redis nodes failed (quorum is 2): DOWN: connect: Connection refused; CLOSED: connect: Connection refused
-- bad input
ValueError: RedisLock::isLocked(): Argument #1 ($resource) must not be empty
ArgumentCountError: RedisLock::isLocked() expects exactly 1 argument, 0 given
ArgumentCountError: RedisLock::isLocked() expects exactly 1 argument, 2 given
done
