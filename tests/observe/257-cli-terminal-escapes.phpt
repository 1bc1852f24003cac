--TEST--
The redislock command writes nothing a terminal acts on: C0 and C1 controls (U+009B as UTF-8 too), DEL, bytes not UTF-8 and bidirectional overrides in names, and a server's error text with ESC sequences, are written as \xNN (a backslash as \\) in list, show, release, watch and error lines, one node and RedLock; valid UTF-8 stays as it is
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../cli.inc';
require __DIR__ . '/../hostile.inc';

$server = rl_test_server(0);
// what a terminal may act on: C0 and DEL, C1 (U+009B CSI as UTF-8, and the byte alone: not UTF-8),
// the bidirectional override U+202E; a backslash (an escape's own), valid UTF-8
$names = ["t257-esc\x1b]0;owned\x07\x1b[2J", "t257-csi\xc2\x9b31m", "t257-raw\x9b", "t257-del\x7f", "t257-rlo\u{202E}txt",
          't257-slash\x1b', "t257-caf\u{e9}"];
$safe = fn(string $s): string => preg_match('/[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80\xae/', $s) || !preg_match('//u', $s)
    ? 'UNSAFE' : 'safe';
$l = new RedisLock($server);
$tokens = [];
foreach ($names as $n) {
    $tokens[$n] = $l->lock($n, 60000);
}

echo "-- list\n";
[$rc, $out, $err] = rl_cli('-s', $server, 'list', 't257-*');
echo "exit $rc, ", $safe($out . $err), "\n", preg_replace('/ {2,}.*$/m', '', $out), $err;
echo "-- show, release\n";
foreach ($names as $n) {
    [$rc, $out, $err] = rl_cli('-s', $server, 'show', $n);
    echo "show: exit $rc, ", $safe($out . $err), ": ", explode("\n", $out)[0], $err, "\n";
    [$rc, $out, $err] = rl_cli('-s', $server, 'release', $n, '--yes');
    echo "release: exit $rc, ", $safe($out . $err), ": ", preg_replace('/, by .*/', '', $out), $err;
}
echo "-- usage\n";
[$rc, $out, $err] = rl_cli('-s', $server, "\x1b[2Jbogus\xc2\x9b");
echo "exit $rc, ", $safe($out . $err), ": ", $err;

echo "-- a server's error text\n";
$h = new RlHostileServer('error-esc');
[$rc, $out, $err] = rl_cli('-s', $h->addr(), 'show', 'x');
echo "show: exit $rc, ", $safe($out . $err), ": ", str_replace($h->addr(), 'HOSTILE', $out . $err);
[$rc, $out, $err] = rl_cli('-s', $server, '-s', $h->addr(), 'show', 'x');
echo "RedLock show: exit $rc, ", $safe($out . $err), ":\n", str_replace([$h->addr(), $server], ['HOSTILE', 'NODE'], preg_replace('/ {2,}/', '  ', $out . $err));
[$rc, $out, $err] = rl_cli('-s', $server, '-s', $h->addr(), '--for', '0.3', 'watch', 'x');
echo "RedLock watch: exit $rc, ", $safe($out . $err), ": ", str_replace([$h->addr(), $server], ['HOSTILE', 'NODE'], preg_replace('/^ *\d+\.\d{3}  /m', '', $out . $err));
[$rc, $out, $err] = rl_cli('-s', $server, '-s', $h->addr(), '--yes', 'release', 'x');
echo "RedLock release: exit $rc, ", $safe($out . $err), "\n";
?>
--EXPECT--
-- list
exit 0, safe
resource
t257-café
t257-csi\xc2\x9b31m
t257-del\x7f
t257-esc\x1b]0;owned\x07\x1b[2J
t257-raw\x9b
t257-rlo\xe2\x80\xaetxt
t257-slash\\x1b
-- show, release
show: exit 0, safe: resource t257-esc\x1b]0;owned\x07\x1b[2J (key lock:t257-esc\x1b]0;owned\x07\x1b[2J)
release: exit 0, safe: released "t257-esc\x1b]0;owned\x07\x1b[2J" (was: lock, 1 holder(s))
show: exit 0, safe: resource t257-csi\xc2\x9b31m (key lock:t257-csi\xc2\x9b31m)
release: exit 0, safe: released "t257-csi\xc2\x9b31m" (was: lock, 1 holder(s))
show: exit 0, safe: resource t257-raw\x9b (key lock:t257-raw\x9b)
release: exit 0, safe: released "t257-raw\x9b" (was: lock, 1 holder(s))
show: exit 0, safe: resource t257-del\x7f (key lock:t257-del\x7f)
release: exit 0, safe: released "t257-del\x7f" (was: lock, 1 holder(s))
show: exit 0, safe: resource t257-rlo\xe2\x80\xaetxt (key lock:t257-rlo\xe2\x80\xaetxt)
release: exit 0, safe: released "t257-rlo\xe2\x80\xaetxt" (was: lock, 1 holder(s))
show: exit 0, safe: resource t257-slash\\x1b (key lock:t257-slash\\x1b)
release: exit 0, safe: released "t257-slash\\x1b" (was: lock, 1 holder(s))
show: exit 0, safe: resource t257-café (key lock:t257-café)
release: exit 0, safe: released "t257-café" (was: lock, 1 holder(s))
-- usage
exit 2, safe: redislock: unknown command "\x1b[2Jbogus\xc2\x9b" (redislock --help shows the usage)
-- a server's error text
show: exit 1, safe: redislock: Redis node HOSTILE: ERR \x1b]0;owned\x07\x1b[2J\xc2\x9b31mboom\x7f\x9b
RedLock show: exit 0, safe:
resource x (key lock:x)
node  kind  holders  ttl  waiters  fence
NODE  free  0  -  0  -
HOSTILE  error: ERR \x1b]0;owned\x07\x1b[2J\xc2\x9b31mboom\x7f\x9b
RedLock watch: exit 0, safe: NODE free, holders 0, waiters 0, fence -; HOSTILE error: ERR \x1b]0;owned\x07\x1b[2J\xc2\x9b31mboom\x7f\x9b
RedLock release: exit 1, safe
