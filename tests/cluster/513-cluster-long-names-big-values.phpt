--TEST--
Cluster: locks() and redislock list beside a lock name over 64 KiB (listed cut, "... (N bytes, sha1 H)", on whichever master holds it; the others listed as always) and inspect() beside a value over 64 KiB (the state, the value not sent back): the scan and inspect scripts bound their replies on every master
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
$l = new RedisLock(['cluster' => [$seed]]);
$long = 'c513-' . str_repeat('a', 70000);
$tl = $l->lock($long, 60000);
$picked = [];
for ($i = 0; count($picked) < 3; $i++) {
    $picked[$c->masterFor("lock:c513-$i")] ??= "c513-$i";
}
$tokens = [];
foreach ($picked as $res) {
    $tokens[$res] = $l->lock($res, 60000);
}
$short = array_values($picked);
sort($short);
try {
    $names = $l->locks('c513-*');
    $cut = array_values(array_filter($names, fn($n) => strlen($n) > 1024));
    echo "locks(): ", array_values(array_diff($names, $cut)) === $short ? 'the 3 short ones' : 'NO: ' . json_encode($names),
        ", and ", count($cut) === 1 && $cut[0] === substr($long, 0, 1024) . '... (70005 bytes, sha1 ' . sha1($long) . ')'
        ? 'the long one cut' : 'NO CUT ONE', "\n";
} catch (RedisLockException $e) {
    echo "locks(): ", get_class($e), ": ", $e->getMessage(), "\n";
}
[$rc, $out, $err] = rl_cli('--cluster', $seed, 'list', 'c513-*');
echo "list: exit $rc, ", count(explode("\n", trim($out))) - 1, " rows, ",
    substr_count($out, 'name cut (too long to show): not inspected'), " cut", $err, "\n";

$c->cmd($c->masterFor('c513:big'), 'SET', 'c513:big', str_repeat('v', 70000));
$p = new RedisLock(['cluster' => [$seed]], ['prefix' => '']);
try {
    $s = $p->inspect('c513:big');
    echo "inspect(): {$s['kind']}, {$s['holders']} holder, names ", json_encode($s['names']), "\n";
} catch (RedisLockException $e) {
    echo "inspect(): ", get_class($e), ": ", $e->getMessage(), "\n";
}
[$rc, $out, $err] = rl_cli('--cluster', $seed, '--prefix', '', 'show', 'c513:big');
echo "show: exit $rc, ", preg_replace(['/^\S+:\d+ +/m', '/ {2,}/'], ['NODE  ', '  '], explode("\n", $out, 3)[2] ?? ''), $err;
$c->cmd($c->masterFor('c513:big'), 'DEL', 'c513:big');
foreach ($tokens as $res => $t) {
    $l->unlock($res, $t);
}
$l->unlock($long, $tl);
?>
--EXPECT--
locks(): the 3 short ones, and the long one cut
list: exit 0, 4 rows, 1 cut
inspect(): lock, 1 holder, names []
show: exit 0, NODE  lock  1  -  0  -
