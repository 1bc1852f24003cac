<?php
/* Scenario f: option on_lost on a thread-safe PHP. Every thread holds an
 * auto_extend lock with on_lost 'throw' and runs busy code (no blocking
 * call); thread 0 deletes thread 1's key. Thread 1 gets its
 * RedisLockLostException; the others get nothing (a thread's interrupt
 * reaches that thread only), go on past thread 1's loss and still hold
 * theirs. */
require __DIR__ . '/lib.php';

$raw = new Raw();
$n = thread();
$lock = new RedisLock(server(), ['auto_extend' => true, 'on_lost' => 'throw']);
$token = $lock->lock("f:t$n", 600, 2.0);
check($token !== null, "f: thread $n: holds its lock (auto_extend, on_lost 'throw')");
$raw->cmd('INCR', 'f:holding');
if ($n === 0) {
    check(Raw::until(fn() => (int)$raw->cmd('GET', 'f:holding') === threads(), 30), 'f: thread 0: every thread holds its lock');
    $raw->cmd('DEL', 'lock:f:t1');
}
$e = null;
$seen = 0;
try {
    for ($i = 0; $i < 1000000000; $i++) {
        if ($n === 1) {
            // known lost: the interrupt is armed, it comes before a second look
            if ($lock->getValidity('f:t1') === 0 && ++$seen > 1) {
                break;
            }
        } elseif ($i % 64 === 0 && $raw->cmd('GET', 'f:told') !== null && ++$seen > 100) {
            break; // a hundred looks past thread 1's exception
        }
    }
} catch (RedisLockLostException $e) {
}
if ($n === 1) {
    check($e !== null && str_contains($e->getMessage(), '"f:t1" lost (lost)'),
          'f: thread 1: its busy code got RedisLockLostException: ' . ($e ? $e->getMessage() : "none ($seen looks)"));
    $raw->cmd('SET', 'f:told', '1');
    check(!$lock->unlock('f:t1', $token), 'f: thread 1: unlock() of the lost lock is false');
    return;
}
check($e === null && $seen > 100, "f: thread $n: nothing thrown here by thread 1's loss" . ($e ? ': ' . $e->getMessage() : ''));
check($lock->isHeld("f:t$n") && $lock->unlock("f:t$n", $token), "f: thread $n: still holds its lock, unlocks it");
