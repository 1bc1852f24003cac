--TEST--
php-fpm with auto_extend: a request that holds a lock (TTL 2 s) past its TTL keeps it (three extensions counted in the worker, the key still its own); killed by max_execution_time it releases it at once (gone when the request has ended); killed by request_terminate_timeout (the worker dies) the lock is free within one TTL (no more than one TTL left when the request has ended, never renewed, then gone); the next request (a new worker) extends its own lock normally
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

// a TTL the watchdog thread extends in time on a loaded machine; the checks
// are counts (the worker's extensions), states when the request is seen
// ended, and bounded waits, not how soon
$ttl = 2000;
$server = new RlTestServer();
$r = $server->client();
// request_terminate_timeout: well past the extensions and the 1 s of CPU
// below, also on a loaded machine
$fpm = new RlTestFpm(['pm.max_children' => 1, 'request_terminate_timeout' => '15s']);
$fpm->writeScript('hold.php', <<<'PHP'
    <?php
    $key = $_GET['key'];
    $e0 = RedisLock::stats()['auto_extended'];   // the worker's, since it started
    $lock = new RedisLock($_GET['addr'], ['auto_extend' => true]);
    $token = $lock->lock($key, (int)$_GET['ttl']);
    // three extensions, a third of the TTL apart at least: the last one came
    // past the lock's first TTL; then the key is ours in Redis (holds())
    $report = function () use ($lock, $key, $token, $e0) {
        if (RedisLock::stats()['auto_extended'] - $e0 < 3) {
            return false;
        }
        $held = var_export($lock->isHeld($key) && $lock->holds($key, $token), true);
        file_put_contents($_GET['report'] . '.tmp', "held past its TTL: $held");
        rename($_GET['report'] . '.tmp', $_GET['report']);
        return true;
    };
    $deadline = microtime(true) + 60;
    if ($_GET['end'] === 'max_execution_time') {
        $x = '';
        for ($i = 0; !($i % 1000 === 0 && $report()) && microtime(true) < $deadline; $i++) {
            $x = md5($x);   // CPU while the watchdog extends
        }
        set_time_limit(1);
        for ($i = 0; $i < 1e12; $i++) {   // CPU until the 1 s limit ends it
            $x = md5($x);
        }
    } else {
        while (!$report() && microtime(true) < $deadline) {
            usleep(10000);
        }
        if ($_GET['end'] === 'terminate') {
            sleep(60);   // request_terminate_timeout kills the worker
        }
        echo (string)@file_get_contents($_GET['report']), "\n";
        echo "unlock: ", var_export($lock->unlock($key, $token), true), "\n";
    }
    PHP);
$q = ['addr' => $server->addr(), 'ttl' => $ttl];

foreach (['normal', 'max_execution_time', 'terminate', 'normal'] as $i => $end) {
    $key = "w705-$i";
    $report = $fpm->dir() . "/report-$i";
    $req = $fpm->start('hold.php', $q + ['key' => $key, 'end' => $end, 'report' => $report], 60);
    rl_wait_until(fn() => is_file($report) || $req->done(), 60.0);
    $held = (string)@file_get_contents($report) === 'held past its TTL: true';
    $res = $req->wait();
    // the request has ended: the lock released at its end (gone now), or
    // left to expire by its TTL (no more than one TTL left, never renewed
    // again, then gone: a bounded wait)
    $pttl = $r->pttl("lock:$key");
    $last = $pttl;
    $renewed = false;
    $gone = rl_wait_until(function () use ($r, $key, &$last, &$renewed) {
        $p = $r->pttl("lock:$key");
        $renewed = $renewed || ($last > 0 && $p > $last);
        $last = $p;
        return $p === -2;
    }, 60.0, 0.01);
    echo "$end: held past its TTL: ", var_export($held, true), ", status {$res['status']}, ";
    if ($end === 'normal') {
        echo implode('; ', explode("\n", trim($res['body']))), "\n";
    } elseif ($end === 'max_execution_time') {
        echo "free at once: ", var_export($pttl === -2, true), "\n";
    } else {   // status 0: php-fpm closed the connection with the worker
        echo "free within one TTL: ", var_export(($pttl === -2 || ($pttl > 0 && $pttl <= $ttl)) && !$renewed && $gone, true), "\n";
    }
}
?>
--EXPECT--
normal: held past its TTL: true, status 200, held past its TTL: true; unlock: true
max_execution_time: held past its TTL: true, status 500, free at once: true
terminate: held past its TTL: true, status 0, free within one TTL: true
normal: held past its TTL: true, status 200, held past its TTL: true; unlock: true
