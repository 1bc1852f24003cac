--TEST--
RedisLock::metrics() in the CLI: this process's numbers and those of children it forks (the mapping is made at module start and shared with them); a waiter woken at a release counts a handoff, a once() waiter its contention and wait; errors counted by code (a synchronized() timeout, a kind error); no argument taken; nothing of the configuration (a URL's password) in it
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$value = function (string $name): float {
    return preg_match('/^' . preg_quote($name, '/') . ' (\S+)$/m', RedisLock::metrics(), $m) ? (float)$m[1] : -1.0;
};
$server = rl_test_server(0);
$r = new RlTestRedis($server);
$r->del('lock:m253', 'lock:m253-sync');
$lock = new RedisLock($server);
$before = ['acquired' => $value('redislock_acquired_total'), 'handoffs' => $value('redislock_handoffs_total'),
           'waited' => $value('redislock_wait_seconds_count')];

$pid = pcntl_fork();
if ($pid === 0) {
    $child = new RedisLock($server);
    $t = $child->lock('m253', 10000);
    usleep(300000);
    $child->unlock('m253', $t);
    exit(0);
}
usleep(100000);                                   // the child holds it now
$t = $lock->lock('m253', 10000, 5.0);             // woken at the child's release
pcntl_waitpid($pid, $status);
echo "waited and got it: ", $t !== null ? 'yes' : 'no', "\n";
$lock->unlock('m253', $t);
echo "acquired, the child's too: +", $value('redislock_acquired_total') - $before['acquired'], "\n";
echo "handoffs: +", $value('redislock_handoffs_total') - $before['handoffs'], "\n";
echo "lock calls that waited: +", $value('redislock_wait_seconds_count') - $before['waited'], "\n";

// a once() waiter (it queues with its first script): contended, and its wait counted
$before = ['contended' => $value('redislock_contended_total'), 'waited' => $value('redislock_wait_seconds_count'),
           'handoffs' => $value('redislock_handoffs_total')];
$r->del('lock:m253-once');
$pid = pcntl_fork();
if ($pid === 0) {
    (new RedisLock($server))->once('m253-once', function () { usleep(300000); return 'built'; });
    exit(0);
}
usleep(100000);
$got = $lock->once('m253-once', fn() => 'not me', 10000, 5.0, $page);
pcntl_waitpid($pid, $status);
echo "once() waited for the child's rebuild: ", $got === RedisLock::ONCE_WAITED && $page === 'built' ? 'yes' : 'NO', "\n";
echo "once(): contended +", $value('redislock_contended_total') - $before['contended'],
    ", waited +", $value('redislock_wait_seconds_count') - $before['waited'],
    ", handoffs +", $value('redislock_handoffs_total') - $before['handoffs'], "\n";

$timeouts = $value('redislock_errors_total{code="10",reason="not acquired in time"}');
$t = $lock->lockShared('m253-sync', 10000);
try {
    (new RedisLock($server))->synchronized('m253-sync', fn() => 1, 1000, 0.05);
} catch (RedisLockTimeoutException $e) {
}
$kinds = $value('redislock_errors_total{code="17",reason="held as another kind"}');
try {
    $lock->lock('m253-sync', 1000);               // held by this object as a shared lock
} catch (RedisLockException $e) {
}
echo "errors by code: not acquired +", $value('redislock_errors_total{code="10",reason="not acquired in time"}') - $timeouts,
    ", kind +", $value('redislock_errors_total{code="17",reason="held as another kind"}') - $kinds, "\n";
$lock->unlock('m253-sync', $t);

new RedisLock("redis://someone:s3cret-pw@$server");
echo "no password: ", str_contains(RedisLock::metrics(), 's3cret') ? 'NO' : 'yes', "\n";
try {
    RedisLock::metrics(1);
} catch (ArgumentCountError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
waited and got it: yes
acquired, the child's too: +2
handoffs: +1
lock calls that waited: +1
once() waited for the child's rebuild: yes
once(): contended +1, waited +1, handoffs +0
errors by code: not acquired +1, kind +1
no password: yes
RedisLock::metrics() expects exactly 0 arguments, 1 given
