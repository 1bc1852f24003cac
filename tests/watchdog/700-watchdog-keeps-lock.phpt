--TEST--
auto_extend: a holder with a 2 s TTL that blocks in sleep(5), and one that blocks in a 5 s BLPOP through phpredis, keeps the lock all along (its watchdog extended it; another process tries every 100 ms and never gets it), and the lock is free right after the release
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); rl_skip_unless_phpredis(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

[$host, $port] = explode(':', rl_test_server(0));
// a TTL the watchdog thread extends in time on a loaded machine; the hold
// outlasts it, and the extensions are counted
$ttl = rl_under_valgrind() ? 3000 : 2000;
$block = rl_under_valgrind() ? 7 : 5;
foreach (['sleep', 'blpop'] as $how) {
    $holder = rl_php_child_start('
        $l = new RedisLock(' . var_export(rl_test_server(0), true) . ', ["auto_extend" => true]);
        $t = $l->lock("w700", ' . $ttl . ');
        echo $t ? "holding\n" : "not acquired\n";
        if (' . var_export($how, true) . ' === "sleep") {
            sleep(' . $block . ');
        } else {
            $r = new Redis();
            $r->connect(' . var_export($host, true) . ', ' . $port . ');
            $r->blPop("w700-nothing", ' . $block . ');
        }
        $held = $l->isHeld("w700");
        $extended = RedisLock::stats()["auto_extended"];
        // the time before the release: a take after it is no overlap (under
        // valgrind the other process once took it between unlock() and a clock read after it)
        $at = microtime(true);
        $ok = $l->unlock("w700", $t);
        printf("released %.6f held %s unlock %s extended %s\n", $at, var_export($held, true), var_export($ok, true), $extended > 0 ? "yes" : "no");
    ');
    rl_wait_until(fn() => str_contains($holder->output(), 'holding'), 60.0);
    $other = new RedisLock(rl_test_server(0));
    $tries = 0;
    $takenAt = [];
    while (!str_contains($holder->output(), 'released') && $holder->isRunning()) {
        $t = $other->lock('w700', 1000);
        $tries++;
        if ($t !== null) {
            $takenAt[] = microtime(true);
            $other->unlock('w700', $t);
        }
        usleep(100000);
    }
    [$exit, $out, $err] = $holder->wait(60);
    // "released <time> held <bool> unlock <bool>" (no regex: PCRE JIT is noise under valgrind)
    $m = array_values(array_filter(explode(' ', trim(strstr($out, 'released') ?: '')), fn($w) => !in_array($w, ['released', 'held', 'unlock', 'extended'], true)));
    array_unshift($m, '');
    $early = array_filter($takenAt, fn($at) => $at < (float)($m[1] ?? 0));
    // released: free at once (no wait), a state
    $t = $other->lock('w700', 1000);
    echo "$how: tries while held ", $tries >= 3 ? 'many' : $tries, ", extended: ", $m[4] ?? '?',
        ", taken before the release: ", count($early),
        ", held to the end: ", $m[2] ?? '?', ", unlock: ", $m[3] ?? '?',
        ", free right after: ", var_export(is_string($t), true), "\n";
    if ($err !== '') echo "stderr: $err\n";
    $other->unlock('w700', $t);
}
?>
--EXPECT--
sleep: tries while held many, extended: yes, taken before the release: 0, held to the end: true, unlock: true, free right after: true
blpop: tries while held many, extended: yes, taken before the release: 0, held to the end: true, unlock: true, free right after: true
