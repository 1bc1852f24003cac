<?php
/* Scenario e: a host whose request goes on after a fatal error (host -s 3:
 * three tasks in one request, as the parallel extension's runtimes run
 * them). Thread 0's first task takes three locks (a RedisLock, one kept by
 * the watchdog, and a RedLock on three servers, kept by the
 * watchdog too) and dies of the memory limit; its second finds both free already, in the
 * same request, takes another and dies of an uncaught Error; its third
 * finds that one free too. The other threads' locks stay held throughout. */
require_once __DIR__ . '/lib.php';

$raw = new Raw();
$n = thread();
$others = threads() - 1;
$task = $raw->cmd('INCR', "e:t$n:task") - 1;   // a task does not know its number: the request goes on

if ($n > 0) {
    if ($task > 0) {
        return;
    }
    hold_while_thread0_dies($raw, 'e');
    return;
}
$othersHeld = fn(): bool => others_held($raw, 'e');

switch ($task) {
    case 0:
        check(Raw::until(fn() => (int)$raw->cmd('GET', 'e:ready') === $others, 60), 'e: thread 0: the others hold their locks');
        $lock = new RedisLock(server());
        $kept = new RedisLock(server(), ['auto_extend' => true]);
        $red = new RedLock(redlock_nodes(), 50, 0, ['auto_extend' => true]);
        check($lock->lock('e:t0', 120000) !== null && $kept->lock('e:t0-kept', 1000) !== null
              && $red->lock('e:t0-red', 1000) !== null,
              'e: thread 0, task 0: holds three locks, two kept by the watchdog (one a RedLock on 3 nodes)');
        echo "going to die of memory\n";
        ini_set('memory_limit', '16M');
        $hog = [];
        while (true) {
            $hog[] = str_repeat('x', 1 << 20);
        }
    case 1: // the same request: its end has not come, the fatal error released them
        check($raw->cmd('GET', 'lock:e:t0') === null && $raw->cmd('GET', 'lock:e:t0-kept') === null,
              'e: thread 0, task 1: the dead task\'s locks released at its fatal error, in the same request');
        check(redlock_keys_left('e:t0-red') === 0,
              'e: thread 0, task 1: the dead task\'s RedLock released on all 3 nodes');
        $red = new RedLock(redlock_nodes(), 50, 0);
        $token = $red->lock('e:t0-red', 120000);
        check($token !== null && $red->unlock('e:t0-red', $token), 'e: thread 0, task 1: the RedLock is free for another');
        check($othersHeld(), 'e: thread 0, task 1: the other threads\' locks still held');
        $lock = new RedisLock(server());
        check($lock->lock('e:t0-error', 120000) !== null, 'e: thread 0, task 1: locks again');
        echo "going to call an undefined function\n";
        redislock_no_such_function();
    case 2:
        check($raw->cmd('GET', 'lock:e:t0-error') === null, 'e: thread 0, task 2: the uncaught Error\'s lock released at once');
        check($othersHeld(), 'e: thread 0, task 2: the other threads\' locks still held');
        $stats = RedisLock::stats();
        check($stats['auto_released'] >= 4, "e: thread 0, task 2: auto_released {$stats['auto_released']} >= 4");
        $raw->cmd('SET', 'e:t0done', '1');
        break;
}
