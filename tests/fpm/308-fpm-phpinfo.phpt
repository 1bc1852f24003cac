--TEST--
php-fpm: phpinfo() rendered by a worker has the redislock section: version, the worker's counters, the pool's metrics, its pooled connection, the INI entries
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

$server = new RlTestServer();
$r = $server->client();
$r->set('lock:r308-held', 'someone else', 'PX', 600000);
// loaded in php.ini as in production (the master's, shared with its worker)
$fpm = new RlTestFpm(['pm.max_children' => 1, 'php_admin_value[redislock.timeout]' => '2.5', 'php_admin_value[extension]' => null],
                     ['extension' => getenv('REDISLOCK_TEST_EXT')]);

$fpm->writeScript('work.php', <<<'PHP'
    <?php
    $lock = new RedisLock($_GET['addr']);
    for ($i = 0; $i < 3; $i++) {
        $lock->unlock('r308', $lock->lock('r308', 10000));
    }
    var_dump($lock->lock('r308-held', 1000));
    PHP);
$fpm->writeScript('info.php', "<?php phpinfo(INFO_MODULES);\n");

$res = $fpm->request('work.php', ['addr' => $server->addr()]);
echo $res['body'], $res['stderr'];
$res = $fpm->request('info.php');
echo "status: {$res['status']}, ", $res['headers']['content-type'], "\n";
$html = $res['body'];

// The section: from its heading to the next module's.
$start = strpos($html, '<h2><a name="module_redislock"');
var_dump($start !== false);
$end = strpos($html, '<h2>', $start + 1);
$section = substr($html, $start, $end === false ? null : $end - $start);
// Each table row as "cell | cell ...", the way a reader sees it.
preg_match_all('~<tr[^>]*>(.*?)</tr>~s', $section, $rows);
foreach ($rows[1] as $row) {
    preg_match_all('~<t[dh][^>]*>(.*?)</t[dh]>~s', $row, $cells);
    $cells = array_map(fn($c) => trim(html_entity_decode(strip_tags($c))), $cells[1]);
    if ($cells[0] === 'Version') {   // the .so this test process loaded too
        $cells[1] = $cells[1] === phpversion('redislock') ? 'VERSION' : "{$cells[1]} (NOT " . phpversion('redislock') . ')';
    }
    echo str_replace($server->addr(), 'ENDPOINT', implode(' | ', $cells)), "\n";
}
?>
--EXPECTF--
NULL
status: 200, text/html; charset=UTF-8
bool(true)
redislock support | enabled
Version | VERSION
hiredis version (headers) | %d.%d.%d
This process | Count
Locks acquired | 3
Shared locks acquired | 0
Permits acquired | 0
Lock attempts contended | 1
Operations failed | 0
Locks released | 3
Locks auto-released | 0
Locks expired before release | 0
Locks lost by the watchdog | 0
Cluster redirections followed | 0
Cluster slot maps fetched | 0
Cluster releases on the lock key alone (slot migrating) | 0
Grants taken back: their reply came after the TTL | 0
Waits ended by the release's wake | 0
Waits ended by a recheck or the holder's TTL | 0
Waiters' blocking reads failed | 0
Redis nodes that can evict lock keys (maxmemory, a policy other than noeviction) | 0
The pool (all processes: RedisLock::metrics()) | Count
Shared by the processes forked after start (php-fpm's workers) | yes
acquired | 3
contended | 1
handoffs | 0
extended | 0
released | 3
auto_released | 0
expired | 0
lost | 0
failed | 0
waits_woken | 0
waits_rechecked | 0
wake_errors | 0
eviction_risk_nodes | 0
lock calls that waited | 0, 0.000 s in all
locks held to their release | 3, %f s in all
Pooled connection | State
ENDPOINT | tcp, db 0, command: open, 1 connects, 0 reconnects, 0 dropped
Directive | Local Value | Master Value
redislock.auto_release | On | On
redislock.connect_timeout | 1.0 | 1.0
redislock.persistent | On | On
redislock.timeout | 2.5 | 2.5
