--TEST--
redislock --json stays lossless for names that are not UTF-8: beside each display form (resource, key, names; bytes not UTF-8 shown as U+FFFD) a *_base64 field holds the exact bytes, so inv\xff1 and inv\xfe1 stay two; list, show, watch, release; RedLock
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(2); ?>
--FILE--
<?php
require __DIR__ . '/../cli.inc';

$server = rl_test_server(0);
$l = new RedisLock($server, ['holder_names' => true]);
$names = ["j258-inv\xff1", "j258-inv\xfe1", "j258-caf\u{e9}"];
$tokens = [];
foreach ($names as $n) {
    $tokens[$n] = $l->lock($n, 60000);
}
$bytes = fn(?string $b64) => $b64 === null ? 'NONE' : bin2hex((string)base64_decode($b64, true));

echo "-- list\n";
[$rc, $out, $err] = rl_cli('-s', $server, '--json', 'list', 'j258-*');
$all = json_decode($out, true);
echo "exit $rc$err, ", count($all), " entries, ", count(array_unique(array_column($all, 'resource_base64'))), " distinct\n";
foreach ($all as $s) {
    echo json_encode($s['resource']), " = ", $bytes($s['resource_base64'] ?? null), ", key ", $bytes($s['key_base64'] ?? null),
        ", names ", count($s['names_base64'] ?? []), "\n";
}
echo "-- show, one node and RedLock\n";
foreach ([[$server], [$server, rl_test_server(1)]] as $servers) {
    [$rc, $out, $err] = rl_cli(...[...array_merge(...array_map(fn($s) => ['-s', $s], $servers)), '--json', 'show', $names[0]]);
    $s = json_decode($out, true);
    $node = $s['nodes'][$server] ?? $s;
    echo "exit $rc$err: ", json_encode($s['resource']), " = ", $bytes($s['resource_base64'] ?? null), ", names ",
        json_encode(array_map(fn($n) => $n === base64_encode($node['names'][0]), $node['names_base64'] ?? [])), "\n";
}
echo "-- watch, release\n";
[$rc, $out, $err] = rl_cli('-s', $server, '--json', '--for', '0.2', 'watch', $names[1]);
$e = json_decode(explode("\n", $out)[0], true);
echo "watch: exit $rc$err, ", $bytes($e['resource_base64'] ?? null), ", detail ", $bytes($e['detail']['resource_base64'] ?? null), "\n";
foreach (array_slice($names, 0, 2) as $n) {
    [$rc, $out, $err] = rl_cli('-s', $server, '--json', '--yes', 'release', $n);
    $e = json_decode($out, true);
    echo "release: exit $rc$err, ", json_encode($e['resource']), " = ", $bytes($e['resource_base64'] ?? null), "\n";
}
?>
--EXPECT--
-- list
exit 0, 3 entries, 3 distinct
"j258-caf\u00e9" = 6a3235382d636166c3a9, key 6c6f636b3a6a3235382d636166c3a9, names 1
"j258-inv\ufffd1" = 6a3235382d696e76fe31, key 6c6f636b3a6a3235382d696e76fe31, names 1
"j258-inv\ufffd1" = 6a3235382d696e76ff31, key 6c6f636b3a6a3235382d696e76ff31, names 1
-- show, one node and RedLock
exit 0: "j258-inv\ufffd1" = 6a3235382d696e76ff31, names [true]
exit 0: "j258-inv\ufffd1" = 6a3235382d696e76ff31, names [true]
-- watch, release
watch: exit 0, 6a3235382d696e76fe31, detail 6a3235382d696e76fe31
release: exit 0, "j258-inv\ufffd1" = 6a3235382d696e76ff31
release: exit 0, "j258-inv\ufffd1" = 6a3235382d696e76fe31
