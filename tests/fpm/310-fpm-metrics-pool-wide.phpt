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
$r->set('lock:r310-held', 'someone else', 'PX', 600000);
// the extension loaded in php.ini, as production does: the master loads it
// before it forks its workers
$fpm = new RlTestFpm(['pm.max_children' => 3, 'php_admin_value[extension]' => null],
                     ['extension' => getenv('REDISLOCK_TEST_EXT')]);

// Per request: 3 acquisitions (one left to auto-release), 1 extension, a
// contended lock call that waits 50 ms, a connection refused.
$fpm->writeScript('ops.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    usleep(100000);   // the round's requests overlap: each worker takes one
    $lock = new RedisLock($_GET['addr']);
    $name = 'r310-' . getmypid() . '-' . mt_rand();
    $t = $lock->lock($name, 10000);
    usleep(2000);
    $ok = $lock->unlock($name, $t);
    $t = $lock->lock("$name-b", 1000);
    $ok = $ok && $lock->extend("$name-b", $t, 5000) && $lock->unlock("$name-b", $t);
    $ok = $ok && $lock->lock('r310-held', 1000, 0.05) === null;
    try {
        (new RedisLock('127.0.0.1:' . $_GET['dead'], ['connect_timeout' => 1.0]))->lock('x', 1000);
        $ok = false;
    } catch (RedisLockConnectionException $e) {
    }
    $ok = $ok && $lock->lock("$name-left", 10000) !== null;   // auto-released at the request's end
    echo $ok ? "ok" : "FAILED", "\n";
    PHP);
$fpm->writeScript('metrics.php', "<?php echo getmypid(), \"\\n\", RedisLock::metrics();\n");
$fpm->writeScript('info.php', "<?php echo getmypid(), \"\\n\"; phpinfo(INFO_MODULES);\n");
$q = ['addr' => $server->addr(), 'dead' => rl_free_port()];

$byPid = $fpm->everyWorker('ops.php', $q);
$requests = array_sum(array_map('count', $byPid));
$allOk = true;
foreach ($byPid as $responses) {
    foreach ($responses as $res) {
        $allOk = $allOk && explode("\n", $res['body'])[1] === 'ok' && $res['stderr'] === '';
    }
}
echo "every worker served: ", count($byPid) === 3 ? 'yes' : 'NO', "; every request ok: ", $allOk ? 'yes' : 'NO', "\n";

$res = $fpm->request('metrics.php');
$text = substr($res['body'], strpos($res['body'], "\n") + 1);
$value = function (string $name) use ($text): ?float {
    return preg_match('/^' . preg_quote($name, '/') . ' (\S+)$/m', $text, $m) ? (float)$m[1] : null;
};
$want = ['redislock_acquired_total' => 3, 'redislock_released_total' => 3, 'redislock_auto_released_total' => 1,
         'redislock_extended_total' => 1, 'redislock_contended_total' => 1, 'redislock_failed_total' => 1,
         'redislock_errors_total{code="1",reason="connect failed"}' => 1, 'redislock_held_seconds_count' => 3,
         'redislock_wait_seconds_count' => 1, 'redislock_handoffs_total' => 0, 'redislock_expired_total' => 0,
         'redislock_lost_total' => 0, 'redislock_errors_total{code="2",reason="timed out"}' => 0];
foreach ($want as $name => $per) {
    $got = $value($name);
    echo "$name: ", $got === (float)($per * $requests) ? "$per per request" : "NO: $got for $requests requests", "\n";
}
$waited = $value('redislock_wait_seconds_sum');
echo "time waited: ", $waited >= 0.05 * $requests && $waited < 1.0 * $requests ? 'about 50 ms a request' : "NO: $waited s", "\n";
$held = $value('redislock_held_seconds_sum');
echo "time held: ", $held >= 0.002 * $requests && $held < 1.0 * $requests ? 'a few ms a request' : "NO: $held s", "\n";
echo "each wait (50 ms) above the 25 ms bucket, all in +Inf: ",
    $value('redislock_wait_seconds_bucket{le="+Inf"}') === (float)$requests
    && $value('redislock_wait_seconds_bucket{le="0.025000"}') === 0.0 ? 'yes' : 'NO', "\n";
echo "every metric typed: ", preg_match_all('/^# TYPE redislock_\w+ (counter|histogram)$/m', $text) === 15 ? 'yes' : 'NO', "\n";
echo "read by one worker of the pool: ", in_array(RlTestFpm::pidOf($res), array_keys($byPid), true) ? 'yes' : 'NO', "\n";

$res = $fpm->request('info.php');
$rows = [];
preg_match_all('~<tr[^>]*>(.*?)</tr>~s', $res['body'], $trs);
foreach ($trs[1] as $tr) {
    preg_match_all('~<t[dh][^>]*>(.*?)</t[dh]>~s', $tr, $cells);
    $cells = array_map(fn($c) => trim(html_entity_decode(strip_tags($c), ENT_QUOTES)), $cells[1]);
    $rows[$cells[0]] ??= $cells[1] ?? '';
}
echo "phpinfo: shared ", $rows["Shared by the processes forked after start (php-fpm's workers)"] ?? 'NO ROW',
    ", acquired ", ($rows['acquired'] ?? '') === (string)(3 * $requests) ? 'the pool total' : 'NO: ' . ($rows['acquired'] ?? '-'),
    ", ", ($rows['errors: connect failed (code 1)'] ?? '') === (string)$requests ? 'errors by code' : 'NO errors row', "\n";
// option holder_names in a web request: the method and the path, never the query string
$fpm->writeScript('hold.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    $lock = new RedisLock($_GET['addr'], ['holder_names' => true]);
    $t = $lock->lock('r310-named', 10000);
    echo json_encode($lock->inspect('r310-named')['names']), "\n";
    $lock->unlock('r310-named', $t);
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
every worker served: yes; every request ok: yes
redislock_acquired_total: 3 per request
redislock_released_total: 3 per request
redislock_auto_released_total: 1 per request
redislock_extended_total: 1 per request
redislock_contended_total: 1 per request
redislock_failed_total: 1 per request
redislock_errors_total{code="1",reason="connect failed"}: 1 per request
redislock_held_seconds_count: 3 per request
redislock_wait_seconds_count: 1 per request
redislock_handoffs_total: 0 per request
redislock_expired_total: 0 per request
redislock_lost_total: 0 per request
redislock_errors_total{code="2",reason="timed out"}: 0 per request
time waited: about 50 ms a request
time held: a few ms a request
each wait (50 ms) above the 25 ms bucket, all in +Inf: yes
every metric typed: yes
read by one worker of the pool: yes
phpinfo: shared yes, acquired the pool total, errors by code
holder name in php-fpm: host, pid, GET /hold.php
loaded by the worker: # redislock: pool-wide no: this worker loaded the extension itself (the pool's php_admin_value[extension]), after php-fpm forked it; these are its numbers only. Load it in php.ini for the pool's
