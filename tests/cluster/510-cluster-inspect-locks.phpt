--TEST--
Cluster: locks() and the redislock command's list scan every master (SCAN routed to each by a key of one of its slots), inspect() and show read a resource on its slot's master, release frees it there
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); rl_skip_unless_servers(1); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
require __DIR__ . '/../cli.inc';

$c = new RlTestCluster();
$seed = $c->seeds()[0];
$l = new RedisLock(['cluster' => [$seed]], ['fencing' => true]);
// a resource on each master
$picked = [];
for ($i = 0; count($picked) < 3; $i++) {
    $picked[$c->masterFor("lock:c510-$i")] ??= "c510-$i";
}
ksort($picked);
$tokens = [];
foreach ($picked as $res) {
    $tokens[$res] = $l->lock($res, 30000);
}
$names = array_values($picked);
sort($names);
echo "locks(): ", $l->locks('c510-*') === $names ? 'one on each of the 3 masters' : 'NO: ' . json_encode($l->locks('c510-*')), "\n";
$ok = true;
foreach ($picked as $master => $res) {
    $s = $l->inspect($res);
    $ok = $ok && $s['kind'] === 'lock' && $s['holders'] === 1 && $s['node'] === $master && $s['fence'] >= 1;
}
echo "inspect(): each on its slot's master: ", $ok ? 'yes' : 'NO', "\n";

[$rc, $out] = rl_cli('--cluster', $seed, 'list', 'c510-*');
$rows = array_slice(explode("\n", trim($out)), 1);
$seen = [];
foreach ($rows as $row) {
    [$res, $node, $kind] = preg_split('/ +/', $row);
    $seen[$res] = [$node, $kind];
}
echo "list: exit $rc, ", count($rows), " rows, ",
    $seen == array_combine(array_values($picked), array_map(fn($m) => [$m, 'lock'], array_keys($picked))) ? 'each lock on its master' : "NO: $out", "\n";
$victim = reset($picked);
[$rc, $out] = rl_cli('--cluster', $seed, 'release', $victim, '--yes');
echo "release: exit $rc, ", str_starts_with($out, "released \"$victim\" (was: lock, 1 holder(s))") ? 'released' : "NO: $out",
    ", on its master: ", $c->cmd(array_key_first($picked), 'EXISTS', "lock:$victim") === 0 ? 'gone' : 'STILL THERE', "\n";
[$rc, $out, $err] = rl_cli('--cluster', '127.0.0.1:1', 'list');
echo "no seed answers: exit $rc, ", substr_count($err, "\n") === 1 ? 'one line' : 'NOT ONE LINE', "\n";
foreach (array_slice($picked, 1) as $res) {
    $l->unlock($res, $tokens[$res]);
}
?>
--EXPECT--
locks(): one on each of the 3 masters
inspect(): each on its slot's master: yes
list: exit 0, 3 rows, each lock on its master
release: exit 0, released, on its master: gone
no seed answers: exit 1, one line
