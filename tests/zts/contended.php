<?php
/* Scenario a: every thread takes the same lock CYCLES times, waiting for it
 * (lock() with a wait), and inside the critical section INCRs a counter in
 * Redis that must read 1 (no other thread inside), DECRs it on the way out.
 * Request 1 of each thread, once every thread is done, reads stats(): the
 * counters are the process's, all threads together. */
require __DIR__ . '/lib.php';

$cycles = (int)(getenv('ZTS_CYCLES') ?: 500);
$raw = new Raw();
$n = thread();

if (request() === 0) {
    $lock = new RedisLock(server(), ['timeout' => 10.0]);
    $got = $overlaps = $missed = 0;
    for ($i = 0; $i < $cycles; $i++) {
        $token = $lock->lock('a:res', 10000, 30.0);
        if ($token === null) {
            $missed++;
            continue;
        }
        $got++;
        if ($raw->cmd('INCR', 'a:inside') !== 1) {
            $overlaps++;
        }
        if ($i % 50 === 0) {
            usleep(200); // now and then a longer section: the others queue up and are woken
        }
        $raw->cmd('DECR', 'a:inside');
        if (!$lock->unlock('a:res', $token)) {
            $missed++;
        }
    }
    $raw->cmd('INCRBY', 'a:cycles', (string)$got);
    $raw->cmd('INCRBY', 'a:overlaps', (string)$overlaps);
    $raw->cmd('INCRBY', 'a:missed', (string)$missed);
    check($got === $cycles && $overlaps === 0 && $missed === 0,
          "a: thread $n: $got of $cycles cycles, $overlaps overlaps, $missed lost or not released");
    $conns = RedisLock::stats()['connections'];
    check(count($conns) >= 1 && array_sum(array_column($conns, 'connects')) === count($conns),
          "a: thread $n: its own pool, each connection made once (" . count($conns) . ' pooled)');
    return;
}

// request 1: every thread's cycles are counted in this process's stats()
$all = threads() * $cycles;
check(Raw::until(fn() => (int)$raw->cmd('GET', 'a:cycles') === $all, 60),
      "a: thread $n: every thread's cycles done");
$stats = RedisLock::stats();
check($stats['acquired'] === $all && $stats['released'] === $all,
      "a: thread $n: stats() per process: acquired {$stats['acquired']}, released {$stats['released']} (want $all)");
