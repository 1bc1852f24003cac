--TEST--
locks() and redislock list beside lock names over 64 KiB: each listed cut (its first 1024 bytes, "... (N bytes, sha1 H)"), two alike at the start stay two, their derived keys (fence counter, queue) left out, the other locks listed and shown as always; a page of SCAN is bounded by the scan script (a lock reply's bounds, not raised), thousands of keys all found once; RedLock
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(2); ?>
--FILE--
<?php
require __DIR__ . '/../cli.inc';

$server = rl_test_server(0);
$r = new RlTestRedis($server);
foreach ($r->keys('lock:l256-*') as $k) {
    $r->del($k);
}
$head = 'l256-' . str_repeat('a', 70000);
$l = new RedisLock($server, ['fencing' => true]);
$ta = $l->lock("{$head}1", 60000);
$tb = $l->lock("{$head}2", 60000);
$ts = $l->lock('l256-short', 60000);
$waiter = rl_php_child_start('
    $l = new RedisLock(' . var_export($server, true) . ');
    $l->lock(' . var_export("{$head}1", true) . ', 5000, 60.0);');   // queues: the long lock's queue key
rl_wait_until(fn() => $l->inspect("{$head}1")['waiters'] === 1, 60);

$mark = '/^(l256-a{1019})\.\.\. \((\d+) bytes, sha1 ([0-9a-f]{40})\)$/';
$which = [sha1("{$head}1") => 'of 1', sha1("{$head}2") => 'of 2'];
$show = fn(array $names): string => implode(', ', array_map(function (string $n) use ($mark, $which, $head) {
    if (!preg_match($mark, $n, $m)) {
        return $n;
    }
    return 'CUT(' . ($m[1] === substr($head, 0, 1024) ? 'first 1024 bytes' : 'NOT ITS FIRST BYTES') . ", {$m[2]} bytes, sha1 "
        . ($which[$m[3]] ?? 'of NEITHER') . ')';
}, $names));
echo "-- locks()\n";
try {
    echo $show($l->locks('l256-*')), "\n";
    echo "RedLock: ", $show((new RedLock([$server, rl_test_server(1)]))->locks('l256-*')), "\n";
} catch (RedisLockException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}

echo "-- redislock list\n";
[$rc, $out, $err] = rl_cli('-s', $server, 'list', 'l256-*');
echo "exit $rc\n", preg_replace(['/\S+:\d+ +/', '/\d+\.\d{3} s/', '/ {2,}/', '/a{1019}\.\.\. \(\d+ bytes, sha1 [0-9a-f]{40}\)/'],
    ['NODE  ', 'T s', '  ', 'CUT'], $out), $err;
[$rc, $out, $err] = rl_cli('-s', $server, '--json', 'list', 'l256-*');
echo "json: exit $rc, ", json_encode(array_map(fn($s) => isset($s['cut']) ? 'cut' : "{$s['resource']} {$s['kind']}", json_decode($out, true) ?? [])), $err, "\n";

echo "-- many keys: every one found once\n";
$args = [];
for ($i = 0; $i < 3000; $i++) {
    array_push($args, "lock:l256-m$i", '1');
}
$r->cmd('MSET', ...$args);
$found = $l->locks('l256-m*', 100000);
echo count($found), " found, ", count(array_unique($found)), " distinct\n";
for ($i = 0; $i < 3000; $i += 500) {
    $r->del(...array_map(fn($j) => "lock:l256-m$j", range($i, $i + 499)));
}

$l->unlock("{$head}1", $ta);
$l->unlock("{$head}2", $tb);
$l->unlock('l256-short', $ts);
$waiter->wait(60);
?>
--EXPECT--
-- locks()
CUT(first 1024 bytes, 70006 bytes, sha1 of 1), CUT(first 1024 bytes, 70006 bytes, sha1 of 2), l256-short
RedLock: CUT(first 1024 bytes, 70006 bytes, sha1 of 1), CUT(first 1024 bytes, 70006 bytes, sha1 of 2), l256-short
-- redislock list
exit 0
resource  node  kind  holders  ttl  waiters  fence
l256-CUT  -  name cut (too long to show): not inspected
l256-CUT  -  name cut (too long to show): not inspected
l256-short  NODE  lock  1  T s  0  1
json: exit 0, ["cut","cut","l256-short lock"]
-- many keys: every one found once
3000 found, 3000 distinct
