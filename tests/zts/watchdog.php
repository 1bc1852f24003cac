<?php
/* Scenario d: the watchdog (option auto_extend) keeps the locks of several
 * threads at once, with a 600 ms TTL held for 3 s, while thread 0's
 * requests end one after another, each leaving an auto_extend lock with
 * auto_release off: each end stops the watching of thread 0's locks only
 * (they expire by their TTL), never the other threads'. */
require __DIR__ . '/lib.php';

$raw = new Raw();
$n = thread();
$last = (int)$_SERVER['HOST_REQUESTS'] - 1;

if ($n > 0) {
    if (request() > 0) {
        return;
    }
    $lock = new RedisLock(server(), ['auto_extend' => true]);
    $token = $lock->lock("d:t$n", 600, 2.0);
    check($token !== null, "d: thread $n: holds its auto_extend lock (TTL 600 ms)");
    $raw->cmd('INCR', 'd:holding');
    $ok = true;
    $end = microtime(true) + 3.0;
    while (microtime(true) < $end) {
        usleep(50000);
        $ok = $ok && $raw->cmd('GET', "lock:d:t$n") === $token && $lock->isHeld("d:t$n");
    }
    check($ok, "d: thread $n: kept for 3 s (5 TTLs) by the watchdog");
    check($lock->unlock("d:t$n", $token), "d: thread $n: unlocks it");
    return;
}

if (request() === 0) {
    check(Raw::until(fn() => (int)$raw->cmd('GET', 'd:holding') === threads() - 1, 30), 'd: thread 0: the others hold theirs');
}
if (request() < $last) {
    // a request that ends with an auto_extend lock it did not release
    $lock = new RedisLock(server(), ['auto_extend' => true, 'auto_release' => false]);
    check($lock->lock('d:t0:' . request(), 300) !== null, 'd: thread 0: request ' . request() . ' locks and leaves it');
    usleep(100000);
    return;
}
// last request: none of thread 0's locks was extended after its request ended
usleep(500000);
$left = $raw->cmd('KEYS', 'lock:d:t0:*');
check($left === [], 'd: thread 0: its locks left by ended requests expired (not extended), ' . count($left) . ' left');
$stats = RedisLock::stats();
check($stats['auto_extended'] > 0, "d: thread 0: auto_extended {$stats['auto_extended']} (process-wide)");
