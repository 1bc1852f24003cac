<?php
/* Scenario b: thread 0's request dies of a fatal error (memory limit), its
 * next request of an uncaught Error, the next of max_execution_time while it
 * waits for a lock another thread holds, while the other threads hold
 * locks. Thread 0's locks are released at each of its requests' end; the
 * other threads' stay held. */
require __DIR__ . '/lib.php';

$raw = new Raw();
$n = thread();
$others = threads() - 1;

if ($n > 0) {
    if (request() > 0) {
        return;
    }
    hold_while_thread0_dies($raw, 'b');
    return;
}
$othersHeld = fn(): bool => others_held($raw, 'b');

switch (request()) {
    case 0: // thread 0, request 0: locks, then runs out of memory
        check(Raw::until(fn() => (int)$raw->cmd('GET', 'b:ready') === $others, 60), 'b: thread 0: the others hold their locks');
        $lock = new RedisLock(server());
        $a = $lock->lock('b:t0', 120000);
        $b = $lock->acquireLock('b:t0-seconds', 120);
        check($a !== null && $b, 'b: thread 0: holds two locks');
        echo "going to die of memory\n";
        ini_set('memory_limit', '16M');
        $hog = [];
        while (true) {
            $hog[] = str_repeat('x', 1 << 20);
        }
    case 1: // its locks went at that request's end; the others' did not
        check($raw->cmd('GET', 'lock:b:t0') === null && $raw->cmd('GET', 'lock:b:t0-seconds') === null,
              'b: thread 0: the fatal request\'s locks released at its end');
        check($othersHeld(), 'b: thread 0: the other threads\' locks still held');
        $lock = new RedisLock(server());
        check($lock->lock('b:t0-error', 120000) !== null, 'b: thread 0: locks again');
        echo "going to call an undefined function\n";
        redislock_no_such_function();
    case 2: // a wall-clock max_execution_time (a ZTS build's timers) ends a wait
        check($raw->cmd('GET', 'lock:b:t0-error') === null, 'b: thread 0: the uncaught Error\'s lock released at its end');
        check($othersHeld(), 'b: thread 0: the other threads\' locks still held');
        $lock = new RedisLock(server());
        check($lock->lock('b:t0-timeout', 120000) !== null, 'b: thread 0: locks again');
        set_time_limit(1);
        echo "going to wait past max_execution_time\n";
        $t = $lock->lock('b:t1', 1000, 20.0); // held by thread 1 all along
        echo 'the wait ended first: ', var_export($t, true), "\n";
        while (true) { // either way, the request ends by its timeout
            usleep(1000); // a call: ThreadSanitizer hands a thread its signals in calls, not in a bare loop
        }
    case 3:
        check($raw->cmd('GET', 'lock:b:t0-timeout') === null, 'b: thread 0: the timed-out request\'s lock released at its end');
        check($othersHeld(), 'b: thread 0: the other threads\' locks still held');
        $stats = RedisLock::stats();
        check($stats['auto_released'] >= 4, "b: thread 0: auto_released {$stats['auto_released']} >= 4");
        $raw->cmd('SET', 'b:t0done', '1');
        break;
}
