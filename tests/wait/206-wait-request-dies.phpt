--TEST--
Waiting: max_execution_time bounds a wait; a waiter that dies mid-wait leaves nothing that outlives its wait, and blocks nobody
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$holder = new RedisLock(rl_test_server(0));
$t = $holder->lock('rl206', 120000);

// max_execution_time = 1: a 60 s wait ends with the request's time: lock()
// returns null. Where that time is wall-clock time (a ZTS PHP's execution
// timers: docs/topologies.md) PHP's timer fires at the same moment, and the
// request dies of its "Maximum execution time" fatal error as lock() returns
// or a statement later: either is the budget ending the wait there. Then
// the child keeps the Zend allocator under valgrind, as 051's does: with
// USE_ZEND_ALLOC=0 PHP itself leaks what a timeout bails out of.
$wallClock = rl_wall_clock_timeouts();
$zendAlloc = getenv('USE_ZEND_ALLOC');
if ($wallClock) {
    putenv('USE_ZEND_ALLOC=1');
}
[$exit, $out] = rl_php_child(<<<'PHP'
$l = new RedisLock(rl_test_server(0));
register_shutdown_function(function () {
    $e = error_get_last();
    if ($e !== null && str_contains($e['message'], 'Maximum execution time')) {
        printf("fatal, %.1f s into the request\n", microtime(true) - $_SERVER['REQUEST_TIME_FLOAT']);
    }
});
$t = $l->lock('rl206', 1000, 60.0);
// the wait ends with the request's budget, counted from the request's start
printf("%s, %.1f s into the request\n", var_export($t, true), microtime(true) - $_SERVER['REQUEST_TIME_FLOAT']);
PHP, ['max_execution_time' => '1'], 120.0);
putenv($zendAlloc === false ? 'USE_ZEND_ALLOC' : "USE_ZEND_ALLOC=$zendAlloc");
// not before the budget (the product's promise); after it, far from the
// 60 s wait: how late a loaded machine runs the child is not the product's
// (no regex: PCRE JIT reads are noise under valgrind)
$ends = ['NULL 0'];   // how the wait may end: the first line's word, the exit status
if ($wallClock) {
    array_push($ends, 'NULL 255', 'fatal 255');
}
$at = sscanf(strtok(trim($out), "\n"), '%[^,], %f s into the request');
echo $at !== null && in_array("$at[0] $exit", $ends, true) && $at[1] !== null && $at[1] >= 0.9 && $at[1] < 30
    ? "ended by the request's 1 s budget"
    : "unexpected (want " . implode(' or ', $ends) . "): exit $exit, " . trim($out), "\n";

// A waiter killed while blocked: its queue entry outlives it only until its
// wait would have ended, and another waiter queued behind it still gets the
// lock after the release though the dead one was woken in its place: the
// release names the next in line in its wake stream, and that one looks
// again when the dead one's reservation ends (what it does with the "next
// in line" wake, and when, is unit_wait.c's test_wait_next_in_line; here:
// states, not times). The live waiter is stopped (SIGSTOP) across the
// release, so that the wakes are read as the release left them.
// The dead one's wait must outlast the live waiter's start (slow under
// valgrind, or on a loaded machine), or its entry would expire before the
// live one queues behind it: a round where it did is run again.
$deadWait = rl_under_valgrind() ? 30.0 : 10.0;
$q = rl_derived_key('lock:rl206', 'q');
$wakes = function () use ($r): array {   // "w <id>" / "n <id>" of every wake stream
    $seen = [];
    foreach (range('A', 'P') as $letter) {
        foreach ($r->cmd('XRANGE', rl_derived_key('lock:rl206', $letter), '-', '+') as [, $fields]) {
            $seen[] = "$fields[0] $fields[1]";
        }
    }
    sort($seen);
    return $seen;
};
for ($round = 1; ; $round++) {
    $t ??= $holder->lock('rl206', 120000);
    $dead = rl_php_child_start(<<<PHP
    \$l = new RedisLock(rl_test_server(0));
    echo "waiting\\n";
    \$l->lock('rl206', 1000, $deadWait);
    PHP);
    rl_wait_until(fn() => $r->cmd('LLEN', $q) === 1, 60);
    $dead->kill();
    $live = rl_php_child_start(<<<'PHP'
    $l = new RedisLock(rl_test_server(0));
    $before = RedisLock::stats();
    $t = $l->lock('rl206', 30000, 60.0);
    $after = RedisLock::stats();
    echo $t !== null ? "got it" : "null", ", wake errors ", $after['wake_errors'] - $before['wake_errors'], "\n";
    $l->unlock('rl206', $t);
    PHP);
    $both = rl_wait_until(fn() => $r->cmd('LLEN', $q) === 2, 60);
    $live->signal(SIGSTOP);
    // "deadline:id", the dead one first (or the live one alone, when the dead one's entry was gone)
    $ids = array_map(fn($e) => substr($e, strpos($e, ':') + 1), $r->cmd('LRANGE', $q, 0, -1));
    $holder->unlock('rl206', $t);
    $t = null;
    $told = $wakes();
    $live->signal(SIGCONT);
    [, $out, $err] = $live->wait(90);
    if (($both && count($ids) === 2) || $round === 3) {
        break;
    }
    rl_test_note("round $round: the dead waiter's entry was gone before the live one queued behind it: run again");
    rl_wait_until(fn() => $r->cmd('EXISTS', $q) === 0, $deadWait + 30);
}
echo "live waiter: ", trim($out . $err), "\n";
echo "the release woke the dead one and named the live one next in line: ",
    count($ids) === 2 && $told === ["n $ids[1]", "w $ids[0]"] ? 'yes' : json_encode(['queue' => $ids, 'wakes' => $told]), "\n";
rl_wait_until(fn() => count($r->keys('lock:rl206*')) === 0, $deadWait + 30);
echo "keys left once the dead one's wait is over: ", count($r->keys('lock:rl206*')), "\n";
?>
--EXPECTF--
ended by the request's 1 s budget
live waiter: got it, wake errors 0
the release woke the dead one and named the live one next in line: yes
keys left once the dead one's wait is over: 0
