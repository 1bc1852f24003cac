--TEST--
Fencing under contention: 8 processes x 200 acquisitions of one resource (RedisLock, and RedLock on 5 nodes), each recording its number while it holds the lock: in acquisition order the numbers strictly increase, none repeats
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(5); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$log = new RlTestRedis(rl_test_server(0));
// under valgrind every child runs in its own valgrind: fewer of them, fewer rounds
[$procs, $n] = rl_under_valgrind() ? [3, 10] : [8, 200];
$code = <<<'PHP'
[, $kind, $servers, $logAddr, $n, $logKey] = $argv;
$servers = json_decode($servers, true);
$log = new RlTestRedis($logAddr);
$lock = $kind === 'redlock'
    ? new RedLock($servers, 5, 3, ['fencing' => true])
    : new RedisLock($servers[0], ['fencing' => true]);
for ($i = 0; $i < (int)$n; $i++) {
    $t = $lock->lock("f601-$kind", 5000, 60.0);
    if ($t === null) { echo "not acquired\n"; exit(1); }
    // recorded while held: the list's order is the order of acquisition
    $log->cmd('RPUSH', $logKey, $lock->fencingToken("f601-$kind") . ' ' . getmypid());
    if (!$lock->unlock("f601-$kind", $t)) { echo "unlock failed\n"; exit(1); }
}
echo "done\n";
PHP;

foreach (['redislock' => rl_test_servers(1), 'redlock' => rl_test_servers(5)] as $kind => $servers) {
    $logKey = "f601-log-$kind-" . bin2hex(random_bytes(4)); // this run's alone
    $children = [];
    for ($p = 0; $p < $procs; $p++) {
        $children[] = rl_php_child_start('$argv = ' . var_export(['-', $kind, json_encode($servers), rl_test_server(0), (string)$n, $logKey], true) . ';' . $code);
    }
    $ok = 0;
    foreach ($children as $c) {
        [$exit, $out, $err] = $c->wait(300);
        $ok += ($exit === 0 && trim($out) === 'done');
        if ($exit !== 0) echo "child failed: $out $err\n";
    }
    $entries = $log->cmd('LRANGE', $logKey, 0, -1); // "<number> <pid>" each
    $seen = array_map('intval', $entries);
    $increasing = true;
    for ($i = 1; $i < count($seen); $i++) {
        if ($seen[$i] <= $seen[$i - 1]) {
            $increasing = false;
            // what a failure needs to be understood: who held it around there
            echo "$kind: #$i is {$entries[$i]} after {$entries[$i - 1]}; entries ", max(0, $i - 3), '..: ',
                implode(', ', array_slice($entries, max(0, $i - 3), 6)), "\n";
        }
    }
    echo "$kind: children ok ", $ok === $procs ? 'all' : $ok, ", numbers ", count($seen) === $procs * $n ? 'all recorded' : count($seen) . ' recorded',
        ', ', $increasing ? 'strictly increasing' : 'NOT increasing',
        ', ', count(array_unique($seen)) === count($seen) ? 'no duplicates' : 'duplicates', "\n";
    $log->del($logKey);
}
?>
--EXPECT--
redislock: children ok all, numbers all recorded, strictly increasing, no duplicates
redlock: children ok all, numbers all recorded, strictly increasing, no duplicates
