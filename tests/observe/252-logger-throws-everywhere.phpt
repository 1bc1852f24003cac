--TEST--
A logger that throws on any event: the call reports it (the logger's exception, or ours with it as previous), the lock state stays consistent (synchronized() whose callback never ran keeps no lock), nothing leaks
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$throwOn = '';
$logger = function ($level, $message, $context) use (&$throwOn) {
    if ($context['event'] === $throwOn) {
        throw new LogicException("logger broke on {$context['event']}");
    }
};
$lock = new RedisLock(rl_test_server(0), ['logger' => $logger]);
$other = new RedisLock(rl_test_server(0));

function attempt(string $what, callable $f): void
{
    try {
        $res = $f();
        echo "$what: returned ", var_export($res, true), "\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(),
            $e->getPrevious() ? ' (previous: ' . $e->getPrevious()->getMessage() . ')' : '', "\n";
    }
}

$throwOn = 'acquired';
attempt('lock', fn() => $lock->lock('l252', 10000));
echo "held: ", $r->exists('lock:l252'), "\n";
$throwOn = 'released';
attempt('releaseLock', fn() => $lock->releaseLock('l252'));
echo "held after release: ", $r->exists('lock:l252'), "\n";
attempt('releaseLock again', fn() => $lock->releaseLock('l252'));

$t = $other->lock('l252', 10000);
$throwOn = 'contended';
attempt('lock, contended', fn() => $lock->lock('l252', 10000));
attempt('synchronized, contended', fn() => $lock->synchronized('l252', fn() => 'ran', 10000, 0.0));
$other->unlock('l252', $t);

$throwOn = 'acquired';
attempt('synchronized', fn() => $lock->synchronized('l252', fn() => 'ran'));
echo "held after synchronized: ", $r->exists('lock:l252'), "\n";
$throwOn = '';
var_dump($lock->releaseLock('l252'));

$throwOn = 'failed';
$dead = new RedisLock('127.0.0.1:' . rl_free_port(), ['logger' => $logger]);
attempt('lock on a dead node', fn() => $dead->lock('l252', 10000));
echo "keys left: ", count($r->keys('lock:l252*')), "\n";
?>
--EXPECTF--
lock: LogicException: logger broke on acquired
held: 1
releaseLock: LogicException: logger broke on released
held after release: 0
releaseLock again: returned false
lock, contended: LogicException: logger broke on contended
synchronized, contended: LogicException: logger broke on contended
synchronized: LogicException: logger broke on acquired
held after synchronized: 0
bool(false)
lock on a dead node: RedisLockConnectionException: Redis node 127.0.0.1:%d: connect: Connection refused (previous: logger broke on failed)
keys left: 0
