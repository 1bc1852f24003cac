--TEST--
One error map: each failure has its class and a stable getCode() (1 connect, 2 timeout, 3 AUTH, 5 protocol, 6 error reply, 9 nodes failing differently, 18 the same each unreachable, 10 not acquired in time; the class follows the code)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

function show(string $what, callable $f): void
{
    try {
        $f();
        echo "$what: no exception\n";
    } catch (RedisLockException $e) {
        echo "$what: ", get_class($e), " code ", $e->getCode(), "\n";
    }
}

$closed = rl_free_port();
show('refused', fn() => (new RedisLock("127.0.0.1:$closed"))->lock('c058', 1000));

$stopped = new RlTestServer();
$stopped->pause();
show('timeout', fn() => (new RedisLock($stopped->addr(), ['timeout' => 0.2]))->lock('c058', 1000));

$locked = new RlTestServer(['--requirepass', 'pw-058']);
show('no AUTH given', fn() => (new RedisLock($locked->addr()))->lock('c058', 1000));
show('wrong password', fn() => (new RedisLock($locked->addr(), ['password' => 'nope-058']))->lock('c058', 1000));

$r = new RlTestRedis(rl_test_server(0));
$r->cmd('HSET', 'lock:c058-hash', 'f', 'v');
$lock = new RedisLock(rl_test_server(0));
show('WRONGTYPE', fn() => $lock->unlock('c058-hash', 'tok'));
$r->del('lock:c058-hash');

// RedLock: one node refused, one timed out, one fine: mixed statuses
$red = new RedLock(["127.0.0.1:$closed", $stopped->addr(), rl_test_server(0)], 0, 1, ['timeout' => 0.2]);
show('two nodes failing differently', fn() => $red->lock('c058', 1000));
do {
    $closed2 = rl_free_port();
} while ($closed2 === $closed);
$red = new RedLock(["127.0.0.1:$closed", "127.0.0.1:$closed2", rl_test_server(0)], 0, 1);
show('two nodes refusing', fn() => $red->lock('c058', 1000));
// one node refused, one answered an error: not all unreachable, so code 9
// and the plain class
$r->cmd('HSET', 'lock:c058-hash', 'f', 'v');
$red = new RedLock(["127.0.0.1:$closed", rl_test_server(0), rl_test_server(1)], 0, 1);
show('one refused, one error reply', fn() => $red->unlock('c058-hash', str_repeat('a', 32)));
$r->del('lock:c058-hash');
$stopped->resume();

$holder = new RedisLock(rl_test_server(0));
$t = $holder->lock('c058-held', 10000);
show('synchronized, held', fn() => (new RedisLock(rl_test_server(0)))->synchronized('c058-held', fn() => 1, 1000, 0.05));
$holder->unlock('c058-held', $t);
?>
--EXPECT--
refused: RedisLockConnectionException code 1
timeout: RedisLockConnectionException code 2
no AUTH given: RedisLockConnectionException code 3
wrong password: RedisLockConnectionException code 3
WRONGTYPE: RedisLockException code 6
two nodes failing differently: RedisLockConnectionException code 18
two nodes refusing: RedisLockConnectionException code 1
one refused, one error reply: RedisLockException code 9
synchronized, held: RedisLockTimeoutException code 10
