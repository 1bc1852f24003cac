--TEST--
Fencing across fresh connections (issue 35): 6 processes x 60 acquisitions of one resource on RedLock (5 nodes) with fencing, every third by a new object with connections of its own (their first write carries the server probes beside the lock), half of them waiting; released by the server's compare-and-delete where it has one, else the script: in acquisition order the numbers strictly increase, none repeats
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(5); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

// The prototype of the native release (9e191f9) once recorded a RedLock
// fencing number twice in test 601 ("13 after 13": early, when fresh
// connections' first replies were still being read). Here every third
// acquisition is on fresh connections, so those first writes and replies
// happen throughout, not once a process.
[$procs, $n] = rl_under_valgrind() ? [3, 9] : [6, 60];
$servers = rl_test_servers(5);
$log = new RlTestRedis(rl_test_server(0));
$logKey = 'f605-log-' . bin2hex(random_bytes(4));
$code = <<<'PHP'
[, $servers, $logAddr, $n, $logKey, $p] = $argv;
$servers = json_decode($servers, true);
$log = new RlTestRedis($logAddr);
$lock = null;
for ($i = 0; $i < (int)$n; $i++) {
    if ($i % 3 === 0) {
        $lock = new RedLock($servers, 5, 3, ['fencing' => true, 'persistent' => false]);
    }
    // half the processes wait for it, half try and try again
    $t = $p % 2 ? $lock->lock('f605', 5000, 60.0) : null;
    for ($tries = 0; $t === null && $tries < 100000; $tries++) {
        $t = $lock->lock('f605', 5000);
    }
    if ($t === null) { echo "not acquired\n"; exit(1); }
    $log->cmd('RPUSH', $logKey, $lock->fencingToken('f605') . ' ' . getmypid());
    if (!$lock->unlock('f605', $t)) { echo "unlock failed\n"; exit(1); }
}
echo "done\n";
PHP;
$children = [];
for ($p = 0; $p < $procs; $p++) {
    $children[] = rl_php_child_start('$argv = ' . var_export(['-', json_encode($servers), rl_test_server(0), (string)$n, $logKey, (string)$p], true) . ';' . $code);
}
$ok = 0;
foreach ($children as $c) {
    [$exit, $out, $err] = $c->wait(300);
    $ok += ($exit === 0 && trim($out) === 'done');
    if ($exit !== 0) echo "child failed: $out $err\n";
}
$entries = $log->cmd('LRANGE', $logKey, 0, -1);
$seen = array_map('intval', $entries);
$increasing = true;
for ($i = 1; $i < count($seen); $i++) {
    if ($seen[$i] <= $seen[$i - 1]) {
        $increasing = false;
        echo "#$i is {$entries[$i]} after {$entries[$i - 1]}; entries ", max(0, $i - 3), '..: ',
            implode(', ', array_slice($entries, max(0, $i - 3), 6)), "\n";
    }
}
echo "children ok ", $ok === $procs ? 'all' : $ok, ", numbers ", count($seen) === $procs * $n ? 'all recorded' : count($seen) . ' recorded',
    ', ', $increasing ? 'strictly increasing' : 'NOT increasing',
    ', ', count(array_unique($seen)) === count($seen) ? 'no duplicates' : 'duplicates', "\n";
$log->del($logKey);
?>
--EXPECT--
children ok all, numbers all recorded, strictly increasing, no duplicates
