--TEST--
auto_extend: a holder that dies stops extending: SIGKILLed, the lock is left to expire by its TTL (no more than one TTL left, then gone); a fatal error, an uncaught exception and exit() release it at once (gone when the process has ended); with auto_release off, it expires by its TTL after the request's end
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
// a TTL the watchdog thread extends in time on a loaded machine; the checks
// are states (held, gone, PTTL), not how soon
$ttl = rl_under_valgrind() ? 4000 : 2000;
$hold = $ttl * 2000;   // µs: the holder lives twice its TTL before it ends
$ends = [
    'SIGKILL' => 'echo "holding\n"; sleep(60);',
    'fatal error' => 'echo "holding\n"; usleep(HOLD); $a = []; while (true) { $a[] = str_repeat("x", 1 << 20); }',
    'uncaught exception' => 'echo "holding\n"; usleep(HOLD); throw new RuntimeException("boom");',
    'exit()' => 'echo "holding\n"; usleep(HOLD); exit(3);',
    'exit() with auto_release off' => 'echo "holding\n"; usleep(HOLD); exit(0);',
];
foreach ($ends as $how => $end) {
    $options = ['auto_extend' => true] + ($how === 'exit() with auto_release off' ? ['auto_release' => false] : []);
    // a memory_limit fatal error needs the Zend allocator (valgrind's pass turns it off,
    // and with it the limit; and a bailout's own leaks are PHP's, not ours)
    putenv($how === 'fatal error' ? 'USE_ZEND_ALLOC=1' : (rl_under_valgrind() ? 'USE_ZEND_ALLOC=0' : 'USE_ZEND_ALLOC'));
    $child = rl_php_child_start('
        const HOLD = ' . $hold . ';
        $l = new RedisLock(' . var_export(rl_test_server(0), true) . ', ' . var_export($options, true) . ');
        $t = $l->lock("w701", ' . $ttl . ');
        ' . $end, ['memory_limit' => '64M']);
    rl_wait_until(fn() => str_contains($child->output(), 'holding'), 60.0);
    usleep((int)($ttl * 1.2 * 1000));   // past the TTL: only the watchdog keeps it
    $stillHeld = $r->exists('lock:w701') === 1;
    if ($how === 'SIGKILL') {
        $child->signal(SIGKILL);
    }
    rl_wait_until(fn() => !$child->isRunning(), 60.0);
    // the process has ended: released at its end, or left with no more than one TTL
    $pttl = $r->pttl('lock:w701');
    $freed = rl_wait_until(fn() => $r->exists('lock:w701') === 0, 60.0, 0.005);
    $child->wait(10);
    $expect = in_array($how, ['SIGKILL', 'exit() with auto_release off'], true) ? 'within one TTL' : 'at once';
    $ok = $expect === 'at once' ? $pttl === -2 : $pttl > 0 && $pttl <= $ttl && $freed;
    echo "$how: held past its TTL while alive: ", var_export($stillHeld, true), ", free $expect: ", var_export($ok, true), "\n";
}
?>
--EXPECT--
SIGKILL: held past its TTL while alive: true, free within one TTL: true
fatal error: held past its TTL while alive: true, free at once: true
uncaught exception: held past its TTL while alive: true, free at once: true
exit(): held past its TTL while alive: true, free at once: true
exit() with auto_release off: held past its TTL while alive: true, free within one TTL: true
