--TEST--
php-fpm: RedisLock::metrics() shows the whole pool from any one worker (counters kept in memory the master shares with the workers it forks): acquisitions, contention, extensions, releases and auto-releases, errors by code, time waited and held, in the Prometheus text format; phpinfo() shows the same
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

$server = new RlTestServer();
$r = $server->client();
$r->set('lock:r311-held', 'someone else', 'PX', 600000);
// the extension loaded in php.ini, as production does: the master loads it
// before it forks its workers
$fpm = new RlTestFpm(['pm.max_children' => 3, 'php_admin_value[extension]' => null],
                     ['extension' => getenv('REDISLOCK_TEST_EXT')]);

// Per request: 4 acquisitions (one left to auto-release), 1 extension, a
// contended lock call that waits in the queue until the test lets go (it
// does 50 ms after it sees the call blocked in its read), a connection
// refused. Each request tells when it started and how long its contended
// call took (hrtime: the same clock as the test's).
$fpm->writeScript('ops.php', <<<'PHP'
    <?php
    $start = hrtime(true);
    echo getmypid(), "\n";
    usleep(100000);   // the round's requests overlap: each worker takes one
    $lock = new RedisLock($_GET['addr']);
    $name = 'r311-' . getmypid() . '-' . mt_rand();
    $t = $lock->lock($name, 10000);
    usleep(2000);
    $ok = $lock->unlock($name, $t);
    $t = $lock->lock("$name-b", 1000);
    $ok = $ok && $lock->extend("$name-b", $t, 5000) && $lock->unlock("$name-b", $t);
    $asked = hrtime(true);
    $t = $lock->lock('r311-wait-' . $_GET['n'], 10000, 120.0);
    $call = hrtime(true) - $asked;
    $ok = $ok && $t !== null && $lock->unlock('r311-wait-' . $_GET['n'], $t);
    try {
        (new RedisLock('127.0.0.1:' . $_GET['dead'], ['connect_timeout' => 1.0]))->lock('x', 1000);
        $ok = false;
    } catch (RedisLockConnectionException $e) {
    }
    $ok = $ok && $lock->lock("$name-left", 10000) !== null;   // auto-released at the request's end
    echo $ok ? "ok" : "FAILED", "\n$start $call\n";
    PHP);
$fpm->writeScript('metrics.php', "<?php echo getmypid(), \"\\n\", RedisLock::metrics();\n");
$fpm->writeScript('info.php', "<?php echo getmypid(), \"\\n\"; phpinfo(INFO_MODULES);\n");
$q = ['addr' => $server->addr(), 'dead' => rl_free_port()];

// Clients blocked in XREAD (a waiter in its read; only the requests' own
// waiters block on this private server)
$blocked = fn() => count(array_filter($r->clientList(), fn($c) => ($c['cmd'] ?? '') === 'xread' && str_contains($c['flags'] ?? '', 'b')));
$holder = new RedisLock($server->addr());

// Rounds of 3 requests at once until every worker has served (as
// RlTestFpm::everyWorker()); request n waits for 'r311-wait-n', which the
// test holds. A request is let go 50 ms after it was seen waiting: in the
// lock's queue, and blocked in its read (every queued one is, when as many
// clients are blocked as requests are queued: read in that order, a
// request that comes meanwhile can only make the count short). Its wait
// began before that: it waited 50 ms or more, however late it ran.
$byPid = [];
$spans = $calls = [];
$n = 0;
$letGoAll = true;
for ($round = 0; $round < 20 && count($byPid) < 3; $round++) {
    $inFlight = $tokens = $seen = [];
    for ($i = 0; $i < 3; $i++) {
        $n++;
        $tokens[$n] = $holder->lock("r311-wait-$n", 600000);
        $inFlight[$n] = $fpm->start('ops.php', $q + ['n' => $n]);
    }
    $letGoAll = rl_wait_until(function () use ($holder, $blocked, &$tokens, &$seen) {
        $b = $blocked();
        $queued = array_filter(array_keys($tokens), fn($k) => $holder->inspect("r311-wait-$k")['waiters'] === 1);
        if ($b >= count($queued)) {
            foreach ($queued as $k) {
                $seen[$k] ??= hrtime(true);
            }
        }
        foreach ($seen as $k => $at) {
            if (isset($tokens[$k]) && hrtime(true) - $at >= 50e6) {
                $holder->unlock("r311-wait-$k", $tokens[$k]);
                unset($tokens[$k]);
            }
        }
        return $tokens === [];
    }, 30.0, 0.002) && $letGoAll;
    foreach ($tokens as $k => $t) {   // not seen waiting: let go anyway, the output says so
        $holder->unlock("r311-wait-$k", $t);
    }
    foreach ($inFlight as $k => $req) {
        $res = $req->wait();
        $done = hrtime(true);
        $byPid[RlTestFpm::pidOf($res)][] = $res;
        [$started, $call] = array_map('intval', explode(' ', explode("\n", $res['body'])[2] ?? '0 0'));
        $spans[] = ($done - $started) / 1e9;   // the request's whole time, at least
        $calls[] = $call / 1e9;
    }
}
ksort($byPid);
$requests = array_sum(array_map('count', $byPid));
$allOk = true;
foreach ($byPid as $responses) {
    foreach ($responses as $res) {
        $allOk = $allOk && explode("\n", $res['body'])[1] === 'ok' && $res['stderr'] === '';
    }
}
echo "every worker served: ", count($byPid) === 3 ? 'yes' : 'NO', "; every request ok: ", $allOk ? 'yes' : 'NO',
    "; each seen waiting before it was let go: ", $letGoAll ? 'yes' : 'NO', "\n";

$res = $fpm->request('metrics.php');
$text = substr($res['body'], strpos($res['body'], "\n") + 1);
$value = function (string $name) use ($text): ?float {
    return preg_match('/^' . preg_quote($name, '/') . ' (\S+)$/m', $text, $m) ? (float)$m[1] : null;
};
$want = ['redislock_acquired_total' => 4, 'redislock_released_total' => 4, 'redislock_auto_released_total' => 1,
         'redislock_extended_total' => 1, 'redislock_contended_total' => 1, 'redislock_failed_total' => 1,
         'redislock_errors_total{code="1",reason="connect failed"}' => 1, 'redislock_held_seconds_count' => 4,
         'redislock_wait_seconds_count' => 1, 'redislock_handoffs_total' => 1, 'redislock_expired_total' => 0,
         'redislock_lost_total' => 0, 'redislock_errors_total{code="2",reason="timed out"}' => 0];
foreach ($want as $name => $per) {
    $got = $value($name);
    echo "$name: ", $got === (float)($per * $requests) ? "$per per request" : "NO: $got for $requests requests", "\n";
}
// Bounds from what happened, not from how fast: each wait 50 ms or more
// (let go that long after it was seen in its read) and inside its call;
// each hold inside its request (4 a request), the first 2 ms or more (a
// sleep). Sums in seconds with 6 decimals: a microsecond of rounding each.
$waited = $value('redislock_wait_seconds_sum');
echo "time waited: ", $waited >= 0.05 * $requests && $waited <= array_sum($calls) + 1e-6 * $requests
    ? '50 ms or more a request, within its call' : "NO: $waited s (calls " . array_sum($calls) . " s)", "\n";
$held = $value('redislock_held_seconds_sum');
echo "time held: ", $held >= 0.002 * $requests && $held <= 4 * array_sum($spans) + 4e-6 * $requests
    ? '2 ms or more a request, within the requests' : "NO: $held s (requests " . array_sum($spans) . " s)", "\n";
echo "each wait (50 ms) above the 25 ms bucket, all in +Inf: ",
    $value('redislock_wait_seconds_bucket{le="+Inf"}') === (float)$requests
    && $value('redislock_wait_seconds_bucket{le="0.025000"}') === 0.0 ? 'yes' : 'NO', "\n";
echo "every metric typed: ", preg_match_all('/^# TYPE redislock_\w+ (counter|histogram)$/m', $text) === 16 ? 'yes' : 'NO', "\n";
echo "read by one worker of the pool: ", in_array(RlTestFpm::pidOf($res), array_keys($byPid), true) ? 'yes' : 'NO', "\n";

// A wait that times out is counted and timed too ("whether they got it or
// not"): a call that waits up to 1 s for 'r311-held', which someone else
// holds throughout. It shows only when seen waiting (in the queue and
// blocked in its read: nothing else blocks here) before its second ran
// out; one whose own try took that second never waited: then it is made
// again, at most 3 times, each said in the log.
$fpm->writeScript('timeout.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    $lock = new RedisLock($_GET['addr']);
    $asked = hrtime(true);
    $t = $lock->lock('r311-held', 1000, 1.0);
    echo $t === null ? 'timed out' : 'GOT IT', "\n", hrtime(true) - $asked, "\n";
    PHP);
$metricsNow = function () use ($fpm): callable {
    $text = $fpm->request('metrics.php')['body'];
    return fn(string $name) => preg_match('/^' . preg_quote($name, '/') . ' (\S+)$/m', $text, $m) ? (float)$m[1] : null;
};
for ($try = 1; ; $try++) {
    $before = $metricsNow();
    $req = $fpm->start('timeout.php', $q);
    $seenWaiting = false;
    rl_wait_until(function () use ($req, $blocked, $holder, &$seenWaiting) {
        $seenWaiting = $seenWaiting || ($blocked() >= 1 && $holder->inspect('r311-held')['waiters'] === 1);
        return $seenWaiting || $req->done();
    }, 30.0, 0.002);
    $body = explode("\n", $req->wait()['body']);
    $after = $metricsNow();
    if ($seenWaiting || $try >= 3) {
        break;
    }
    rl_test_note("timed-out wait, try $try: not seen waiting before its 1 s ran out (its try took it?); not counted, run again");
}
$d = fn(string $name) => $after($name) - $before($name);
$call = (int)($body[2] ?? 0) / 1e9;
$w = $d('redislock_wait_seconds_sum');
echo "a wait that timed out: ", $body[1] ?? '-', ", seen waiting: ", $seenWaiting ? 'yes' : 'NO', ", counted ",
    $d('redislock_wait_seconds_count') === 1.0 && $d('redislock_contended_total') === 1.0 && $d('redislock_handoffs_total') === 0.0
    ? 'once (contended, no handoff)' : 'NO', ", timed within its call: ", $w > 0 && $w <= $call + 1e-6 ? 'yes' : "NO ($w s of $call s)", "\n";

$res = $fpm->request('info.php');
$rows = [];
preg_match_all('~<tr[^>]*>(.*?)</tr>~s', $res['body'], $trs);
foreach ($trs[1] as $tr) {
    preg_match_all('~<t[dh][^>]*>(.*?)</t[dh]>~s', $tr, $cells);
    $cells = array_map(fn($c) => trim(html_entity_decode(strip_tags($c), ENT_QUOTES)), $cells[1]);
    $rows[$cells[0]] ??= $cells[1] ?? '';
}
echo "phpinfo: shared ", $rows["Shared by the processes forked after start (php-fpm's workers)"] ?? 'NO ROW',
    ", acquired ", ($rows['acquired'] ?? '') === (string)(4 * $requests) ? 'the pool total' : 'NO: ' . ($rows['acquired'] ?? '-'),
    ", ", ($rows['errors: connect failed (code 1)'] ?? '') === (string)$requests ? 'errors by code' : 'NO errors row', "\n";
// option holder_names in a web request: the method and the path, never the query string
$fpm->writeScript('hold.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    $lock = new RedisLock($_GET['addr'], ['holder_names' => true]);
    $t = $lock->lock('r311-named', 10000);
    echo json_encode($lock->inspect('r311-named')['names']), "\n";
    $lock->unlock('r311-named', $t);
    PHP);
$res = $fpm->request('hold.php', $q + ['api_key' => 's3cret']);
$pid = RlTestFpm::pidOf($res);
$names = json_decode(explode("\n", $res['body'])[1], true);
echo "holder name in php-fpm: ", $names === [gethostname() . " pid=$pid GET /hold.php"] ? 'host, pid, GET /hold.php' : 'NO: ' . json_encode($names),
    str_contains($res['body'], 's3cret') ? ', THE QUERY SHOWN' : '', "\n";
$fpm->stop();

// loaded by each worker (the pool's php_admin_value[extension]): its own numbers, and it says so
$alone = new RlTestFpm(['pm.max_children' => 2]);
$alone->writeScript('metrics.php', "<?php echo getmypid(), \"\n\", RedisLock::metrics();\n");
$text = $alone->request('metrics.php')['body'];
echo "loaded by the worker: ", strtok(substr($text, strpos($text, "\n") + 1), "\n"), "\n";
$alone->stop();
?>
--EXPECT--
every worker served: yes; every request ok: yes; each seen waiting before it was let go: yes
redislock_acquired_total: 4 per request
redislock_released_total: 4 per request
redislock_auto_released_total: 1 per request
redislock_extended_total: 1 per request
redislock_contended_total: 1 per request
redislock_failed_total: 1 per request
redislock_errors_total{code="1",reason="connect failed"}: 1 per request
redislock_held_seconds_count: 4 per request
redislock_wait_seconds_count: 1 per request
redislock_handoffs_total: 1 per request
redislock_expired_total: 0 per request
redislock_lost_total: 0 per request
redislock_errors_total{code="2",reason="timed out"}: 0 per request
time waited: 50 ms or more a request, within its call
time held: 2 ms or more a request, within the requests
each wait (50 ms) above the 25 ms bucket, all in +Inf: yes
every metric typed: yes
read by one worker of the pool: yes
a wait that timed out: timed out, seen waiting: yes, counted once (contended, no handoff), timed within its call: yes
phpinfo: shared yes, acquired the pool total, errors by code
holder name in php-fpm: host, pid, GET /hold.php
loaded by the worker: # redislock: pool-wide no: this worker loaded the extension itself (the pool's php_admin_value[extension]), after php-fpm forked it; these are its numbers only. Load it in php.ini for the pool's
