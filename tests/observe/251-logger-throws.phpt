--TEST--
A logger that throws: the exception reaches the caller, the lock state stays consistent (the acquired lock is recorded and auto-released)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$lock = new RedisLock(rl_test_server(0), ['logger' => function ($level, $message, $context) {
    if ($context['event'] === 'acquired') {
        throw new LogicException("logger broke on $message");
    }
}]);
try {
    $lock->lock('l251', 10000);
    echo "no exception\n";
} catch (LogicException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
echo "held in Redis: ", $r->exists('lock:l251'), "\n";
var_dump($lock->releaseLock('l251'));   // the object knows it holds it
echo "after release: ", $r->exists('lock:l251'), "\n";
try {
    $lock->acquireLock('l251b', 10);
} catch (LogicException $e) {
    echo "acquireLock: ", $e->getMessage(), "\n";
}
unset($lock);                            // destruction releases it
echo "after destruction: ", $r->exists('lock:l251b'), "\n";
?>
--EXPECT--
LogicException: logger broke on redislock: acquired l251
held in Redis: 1
bool(true)
after release: 0
acquireLock: logger broke on redislock: acquired l251b
after destruction: 0
