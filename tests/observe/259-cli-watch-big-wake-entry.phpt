--TEST--
redislock watch goes on when its wake read is refused (an entry over 64 KiB written to a wake stream under the prefix: the client's bounds refuse the reply, and are not raised): one line on stderr says so once, and it looks once a second until --for ends, exit 0
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../cli.inc';

$server = rl_test_server(0);
$r = new RlTestRedis($server);
$wake = rl_derived_key('lock:w259', 'A');
$r->del('lock:w259', $wake);
$patience = rl_under_valgrind() ? 100 : 30;
$blockedReads = fn() => count(array_filter($r->clientList(), fn($c) => $c['cmd'] === 'xread' && str_contains($c['flags'], 'b')));
$proc = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . getenv('REDISLOCK_TEST_EXT'), RL_CLI, '-s', $server, '--for', '4', 'watch', 'w259'],
    [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
echo "in its read: ", rl_wait_until(fn() => $blockedReads() >= 1, $patience) ? 'yes' : 'NO', "\n";
$r->cmd('XADD', $wake, '*', 'w', str_repeat('v', 70000));   // what its XREAD reads: over the bulk bound
$out = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
fclose($pipes[1]);
fclose($pipes[2]);
echo "exit ", proc_close($proc), "\n", preg_replace('/^ *\d+\.\d{3}  /m', '', $out), $err;
$r->del($wake);
?>
--EXPECTF--
in its read: yes
exit 0
free, holders 0, waiters 0, fence -
redislock: a wake read failed (Redis node %s: protocol error: bulk reply of %d bytes (limit 65536)): looking once a second
