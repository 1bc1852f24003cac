--TEST--
php-fpm: RedisLock::stats() counts per worker process, across its requests (acquired, contended, failed, released, expired), and lists the worker's pooled connections (endpoint, role command/wait, open, connects, reconnects)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

$server = new RlTestServer();
$r = $server->client();
$r->set('lock:r307-held', 'someone else', 'PX', 600000);
$dead = rl_free_port();   // nothing listens there
$fpm = new RlTestFpm(['pm.max_children' => 2]);

// The same operations in every request.
$fpm->writeScript('ops.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    usleep((int)$_GET['sleep']);
    $lock = new RedisLock($_GET['addr']);
    $t = $lock->lock('r307-' . getmypid(), 10000);          // acquired
    $ok = $lock->unlock('r307-' . getmypid(), $t);           // released
    $ok = $ok && $lock->lock('r307-held', 1000) === null;    // contended
    $ok = $ok && $lock->lock('r307-held', 1000, 0.05) === null;  // contended, waited on the wait connection
    $t = $lock->lock('r307-short-' . getmypid(), 20);        // acquired
    usleep(60000);
    $ok = $ok && $lock->unlock('r307-short-' . getmypid(), $t) === false;  // expired
    try {
        (new RedisLock('127.0.0.1:' . $_GET['dead'], ['connect_timeout' => 1.0]))->lock('x', 1000);
    } catch (RedisLockConnectionException $e) {                // failed
        $ok = $ok && str_contains($e->getMessage(), 'Connection refused');
    }
    echo $ok ? "ok" : "FAILED", "\n";
    echo json_encode(RedisLock::stats()), "\n";
    PHP);
$q = ['addr' => $server->addr(), 'dead' => $dead];

// Rounds of 2 concurrent requests (one per worker), then one at a time.
$responses = [];
for ($round = 0; $round < 3; $round++) {
    array_push($responses, ...$fpm->requestAll(array_fill(0, 2, ['ops.php', $q + ['sleep' => 200000]]), 2));
}
array_push($responses, ...$fpm->requestAll(array_fill(0, 4, ['ops.php', $q + ['sleep' => 0]]), 1));

$per = ['acquired' => 2, 'acquired_shared' => 0, 'acquired_permits' => 0, 'contended' => 2, 'failed' => 1, 'released' => 1, 'auto_released' => 0, 'expired' => 1, 'lost' => 0, 'auto_extended' => 0,
        'cluster_redirects' => 0, 'cluster_map_refreshes' => 0, 'cluster_one_key_releases' => 0, 'late_grants' => 0,
        'waits_woken' => 0, 'wake_errors' => 0, 'eviction_risk_nodes' => 0];
$served = [];
$bad = 0;
$shown = [];
foreach ($responses as $res) {
    $pid = RlTestFpm::pidOf($res);
    $lines = explode("\n", $res['body']);
    if (count($lines) < 3) { // say what came instead (a load's timeout, a worker's death), and fail
        $bad++;
        echo "a response without its counters: status {$res['status']}, exit {$res['exit']}, body ",
            json_encode($res['body']), ", stderr ", json_encode($res['stderr']), "\n";
        continue;
    }
    [, $ok, $json] = $lines;
    $s = json_decode($json, true);
    $n = $served[$pid] = ($served[$pid] ?? 0) + 1;
    $want = array_map(fn($v) => $v * $n, $per);
    // the 50 ms wait ends at its deadline: one blocking read that runs to
    // it, or none when the attempt itself took the 50 ms (a loaded machine)
    $rechecked = $s['waits_rechecked'] ?? -1;
    $counters = array_diff_key($s, ['connections' => 1, 'waits_rechecked' => 1]);
    if ($rechecked < 0 || $rechecked > $n) {
        $bad++;
        echo "request $n of worker $pid: waits_rechecked $rechecked, more than one a request\n";
    }
    if ($ok !== 'ok' || $counters !== $want || $res['stderr'] !== '') {
        $bad++;
        echo "request $n of worker $pid: $ok; counters: ", json_encode($counters), ", want ", json_encode($want), "\n";
    }
    if ($n <= 2 && !isset($shown[$n])) {   // show a worker's 1st and 2nd response
        $shown[$n] = true;
        echo "-- a worker's request #$n\n";
        foreach ($counters as $k => $v) {
            echo "$k: $v\n";
        }
        $rows = array_map(fn($c) => sprintf('%s %s: %s, %s',
            match ($c['endpoint']) { $server->addr() => 'SERVER', "127.0.0.1:$dead" => 'DEAD', default => $c['endpoint'] },
            $c['role'], $c['open'] ? 'open' : 'closed',
            $c['role'] === 'wait' ? ($c['connects'] >= 1 ? 'connected' : 'never connected')
                                  : "{$c['connects']} connects, {$c['reconnects']} reconnects, {$c['dropped']} dropped"),
            $s['connections']);
        sort($rows);
        echo implode("\n", $rows), "\n";
    }
}
ksort($served);
echo "responses: ", count($responses), ", with each worker's counters = its requests x the per-request counts: ",
    $bad === 0 ? 'yes' : 'NO', "\n";
echo "workers: ", count($served), ", the pool's: ", array_keys($served) === $fpm->workers() ? 'yes' : 'NO', "\n";
echo "a worker served several requests: ", max($served) >= 2 ? 'yes' : 'NO', "\n";
?>
--EXPECT--
-- a worker's request #1
acquired: 2
acquired_shared: 0
acquired_permits: 0
contended: 2
failed: 1
released: 1
auto_released: 0
expired: 1
lost: 0
auto_extended: 0
cluster_redirects: 0
cluster_map_refreshes: 0
cluster_one_key_releases: 0
late_grants: 0
waits_woken: 0
wake_errors: 0
eviction_risk_nodes: 0
DEAD command: closed, 0 connects, 0 reconnects, 0 dropped
SERVER command: open, 1 connects, 0 reconnects, 0 dropped
SERVER wait: open, connected
-- a worker's request #2
acquired: 4
acquired_shared: 0
acquired_permits: 0
contended: 4
failed: 2
released: 2
auto_released: 0
expired: 2
lost: 0
auto_extended: 0
cluster_redirects: 0
cluster_map_refreshes: 0
cluster_one_key_releases: 0
late_grants: 0
waits_woken: 0
wake_errors: 0
eviction_risk_nodes: 0
DEAD command: closed, 0 connects, 0 reconnects, 0 dropped
SERVER command: open, 1 connects, 0 reconnects, 0 dropped
SERVER wait: open, connected
responses: 10, with each worker's counters = its requests x the per-request counts: yes
workers: 2, the pool's: yes
a worker served several requests: yes
