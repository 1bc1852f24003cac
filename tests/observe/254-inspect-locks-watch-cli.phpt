--TEST--
The redislock command (bridge/bin/redislock) and inspect(): list the locks (SCAN, derived keys left out; a pattern, a limit), show a resource (free, a lock with its waiters and fence counter, its holder's name with option holder_names, a shared lock, a semaphore, another prefix; a table or JSON; RedLock node by node with an unreachable one), watch it (woken at once by a release that wakes a waiter), release it whoever holds it (--yes needed off a terminal; the line names who; its waiter takes the lock; again: nothing to release, exit 1); bad input and unreachable servers: one line, exit 2 or 1, no password
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(2); ?>
--FILE--
<?php
require __DIR__ . '/../cli.inc';
require_once __DIR__ . '/../free_port.inc';

$server = rl_test_server(0);
$r = new RlTestRedis($server);
$r->del('lock:o254', rl_derived_key('lock:o254', 'f'), 'lock:o254-shared', 'lock:o254-sem', 'app:o254');
$dead = '127.0.0.1:' . rl_free_port();
$patience = rl_under_valgrind() ? 100 : 30;   // each bounded wait for a state

echo "-- free\n";
[$rc, $out] = rl_cli('-s', $server, 'show', 'o254');
echo "exit $rc\n", preg_replace('/^\S+:\d+ +/m', 'NODE  ', $out);

echo "-- a lock, its fence counter, two waiters\n";
// Waits for states, each bounded; the TTL and the waiters' wait outlast
// them all (the release ends the waits), however slowly the waiters start
// (each a valgrind'd php in that pass)
$holder = new RedisLock($server, ['fencing' => true]);
$lockedAt = hrtime(true);
$t = $holder->lock('o254', 300000);
$waiters = [];
for ($i = 0; $i < 2; $i++) {
    $waiters[] = rl_php_child_start('
        $l = new RedisLock(' . var_export($server, true) . ');
        echo $l->lock("o254", 5000, 300.0) !== null ? "got it\n" : "not\n";');
}
rl_wait_until(fn() => $holder->inspect('o254')['waiters'] === 2, $patience);
[$rc, $out] = rl_cli('-s', $server, 'show', 'o254');
echo "exit $rc\n", preg_replace(['/^\S+:\d+ +/m', '/\d+\.\d{3} s/'], ['NODE  ', 'T s'], $out);
[$rc, $out] = rl_cli('-s', $server, '--json', 'show', 'o254');
$sinceLock = (hrtime(true) - $lockedAt) / 1e6;   // ms, since before the lock was asked for
$j = json_decode($out, true);
// the key's PTTL: 300 s less what has passed since the lock (Redis counts in whole ms)
echo "json: exit $rc, kind {$j['kind']}, holders {$j['holders']}, waiters {$j['waiters']}, fence {$j['fence']}, ttl ",
    $j['ttl'] <= 300000 && $j['ttl'] >= 300000 - ceil($sinceLock) - 1 ? '300 s less the time since the lock' : "NO ({$j['ttl']} after $sinceLock ms)",
    ", node ", $j['node'] === $server ? 'ours' : 'NO', "\n";
$s = $holder->inspect('o254');
echo "inspect(): {$s['kind']}, {$s['holders']} holder, {$s['waiters']} waiters, key ", $s['key'], "\n";

echo "-- release\n";
[$rc, $out, $err] = rl_cli('-s', $server, 'release', 'o254');
echo "off a terminal, no --yes: exit $rc, $err", "still held: ", $holder->holds('o254', $t) ? 'yes' : 'NO', "\n";
[$rc, $out] = rl_cli('-s', $server, 'release', 'o254', '--yes');
echo "exit $rc: ", preg_replace('/by \S+@\S+, pid \d+/', 'by USER@HOST, pid N', $out);
echo "held by the holder: ", $holder->holds('o254', $t) ? 'YES' : 'no', "\n";
$got = [];
foreach ($waiters as $w) {
    [$exit, $o] = $w->wait($patience);   // the first gets it at the release, the second when its TTL ends
    $got[] = trim($o);
}
echo "waiters: ", implode(', ', $got), "\n";
[$rc, $out, $err] = rl_cli('-s', $server, 'release', 'o254', '--yes');
echo "again: exit $rc, $err";

echo "-- a shared lock, a semaphore, another prefix\n";
$a = new RedisLock($server);
$b = new RedisLock($server);
$a->lockShared('o254-shared', 10000);
$b->lockShared('o254-shared', 10000);
$a->acquirePermit('o254-sem', 3, 10000);
$b->acquirePermit('o254-sem', 3, 10000);
$app = new RedisLock($server, ['prefix' => 'app:']);
$app->lock('o254', 10000) ?? print("NOT TAKEN\n");
foreach ([['o254-shared'], ['o254-sem'], ['--prefix', 'app:', 'o254']] as $args) {
    $res = array_pop($args);
    [$rc, $out] = rl_cli('-s', $server, ...[...$args, 'show', $res]);
    echo "exit $rc: ", preg_replace(['/^\S+:\d+ +/m', '/\d+\.\d{3} s/'], ['NODE  ', 'T s'], explode("\n", $out, 3)[2]);
}

echo "-- holder names (option holder_names): the host, pid and script; never an owner's own token\n";
$named = new RedisLock($server, ['holder_names' => true]);
$tn = $named->lock('o254-named', 10000);
$other = new RedisLock($server, ['holder_names' => true]);
$owner = $other->lock('o254-owned', 10000, 0.0, 'job-7');
$me = gethostname() . ' pid=' . getmypid() . ' cli ';
$names = $named->inspect('o254-named')['names'];
echo "inspect(): ", count($names) === 1 && str_starts_with($names[0], $me) && str_ends_with($names[0], '254-inspect-locks-watch-cli.php') ? 'host, pid, cli and the script' : 'NO: ' . json_encode($names),
    "; the token's random part shown: ", str_contains(json_encode($named->inspect('o254-named')), substr($tn, 0, 32)) ? 'YES' : 'no', "\n";
[$rc, $out] = rl_cli('-s', $server, 'show', 'o254-named');
echo "show: ", str_contains($out, "held by: $me") ? 'held by: HOST pid=PID cli SCRIPT' : "NO: $out", "\n";
echo "an owner's token: ", json_encode($other->inspect('o254-owned')['names']), ", plain tokens: ", json_encode($holder->inspect('o254-shared')['names']), "\n";
// a web request's name: its method and path, never the query string (PHP's built-in server
// gives the whole URI, query and all, as the request URI)
$docroot = rl_mktemp_dir('rl-254-www-');
file_put_contents("$docroot/hold.php", '<?php $l = new RedisLock(' . var_export($server, true) . ', ["holder_names" => true]);
    $t = $l->lock("o254-web", 10000); echo json_encode($l->inspect("o254-web")["names"]); $l->unlock("o254-web", $t);');
$port = rl_free_port();
$web = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . getenv('REDISLOCK_TEST_EXT'), '-S', "127.0.0.1:$port", '-t', $docroot],
    [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $webPipes);
$body = null;
rl_wait_until(function () use ($port, &$body) {
    $body = @file_get_contents("http://127.0.0.1:$port/hold.php?api_key=s3cret&x=1");
    return $body !== false;
}, $patience, 0.05);
proc_terminate($web);
proc_close($web);
rl_rmtree($docroot);
$webNames = json_decode((string)$body, true);
echo "a web request's name: ", is_array($webNames) && count($webNames) === 1 && str_ends_with($webNames[0], ' GET /hold.php')
    ? 'HOST pid=PID GET /hold.php' : "NO: $body", str_contains((string)$body, 's3cret') ? ', THE QUERY SHOWN' : '', "\n";
echo "the named token works as any: ", var_export($named->extend('o254-named', $tn, 5000) && $named->unlock('o254-named', $tn), true), "\n";
$other->unlock('o254-owned', $owner);

echo "-- list (SCAN, never KEYS): the locks above, not their queues, fence counters or other keys\n";
$r->del('lock:o254-zz');
[$rc, $out] = rl_cli('-s', $server, 'list', 'o254*');
echo "exit $rc\n", preg_replace(['/\S+:\d+ +/', '/\d+\.\d{3} s/', '/ {2,}/'], ['NODE  ', 'T s', '  '], $out);
$names = $holder->locks('o254*');
echo "locks(): ", json_encode($names), "; with a limit of 1: ", count($holder->locks('o254*', 1)), "\n";
[$rc, $out] = rl_cli('-s', $server, '--json', 'list', 'o254-s*');
echo "json: exit $rc, ", json_encode(array_map(fn($s) => [$s['resource'], $s['kind'], $s['holders']], json_decode($out, true))), "\n";
[$rc, $out] = rl_cli('-s', $server, 'list', 'no-such-*');
echo "exit $rc: $out";

echo "-- RedLock: node by node\n";
$other = rl_test_server(1);
[$rc, $out] = rl_cli('-s', $server, '-s', $other, '-s', $dead, 'show', 'o254-shared');
echo "exit $rc\n", str_replace([$server, $other, $dead], ['NODE1', 'NODE2', 'DEAD'], preg_replace('/\d+\.\d{3} s/', 'T s', $out));
$s = (new RedLock([$server, $dead]))->inspect('o254-shared');
echo "inspect(): ", json_encode(array_map(fn($n) => $n['kind'] ?? $n['error'], $s['nodes'])) === json_encode([$server => 'shared', $dead => 'connect: Connection refused']) ? 'each node, or its error' : 'NO: ' . json_encode($s), "\n";

echo "-- watch: a line at each change, at once when a release wakes a waiter (else a look each second)\n";
$r->del('lock:o254-w', 'o254-w-go');
$watchCmd = fn(string $for) => [PHP_BINARY, '-n', '-d', 'extension=' . getenv('REDISLOCK_TEST_EXT'), RL_CLI, '-s', $server,
                                '--json', '--for', $for, 'watch', 'o254-w'];
// --for ends it: its first look, then exit 0
$proc = proc_open($watchCmd('0.2'), [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$lines = array_filter(explode("\n", stream_get_contents($pipes[1])));
$err = stream_get_contents($pipes[2]);
fclose($pipes[1]);
fclose($pipes[2]);
echo "watch --for 0.2: exit ", proc_close($proc), "; ", implode(' | ', array_map(fn($l) => json_decode($l, true)['state'] ?? $l, $lines)), $err, "\n";

// A watch that runs until the test ends it, and its lines as they come.
// The order of its lines tells whether the release woke it: woken between
// two looks, it says 'woken' before its next look shows the new state (the
// waiter taking the lock, or not yet in); a watch that only looked would
// show that state first. The release comes
// while the watch is blocked in its read (its XREAD and the waiter's both
// blocked on the server); its read ends each second for a look, so a
// release can still fall in the moment between two reads (the watch then
// shows the state first): that try does not count, and another is made,
// up to 3 (each said in the log: rl_test_note).
$proc = proc_open($watchCmd('3600'), [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$next = function (float $seconds) use ($pipes): ?array {   // its next line, or null when none comes in $seconds
    $deadline = hrtime(true) + (int)($seconds * 1e9);
    while (($left = ($deadline - hrtime(true)) / 1e9) > 0) {
        $read = [$pipes[1]];
        $none = null;
        if (@stream_select($read, $none, $none, (int)$left, (int)(fmod($left, 1.0) * 1e6)) > 0) {
            $line = fgets($pipes[1]);
            return $line === false ? null : json_decode($line, true);
        }
    }
    return null;
};
$nextThat = function (callable $is, float $seconds) use ($next): ?array {
    $deadline = hrtime(true) + (int)($seconds * 1e9);
    while (($e = $next(max(0.001, ($deadline - hrtime(true)) / 1e9))) !== null) {
        if ($is($e)) {
            return $e;
        }
    }
    return null;
};
$shown = fn(?array $e) => $e === null ? 'nothing' : ($e['event'] === 'woken' ? 'woken' : $e['state']);
$blockedReads = fn() => count(array_filter($r->clientList(), fn($c) => $c['cmd'] === 'xread' && str_contains($c['flags'], 'b')));
$first = $next($patience);   // its first look: free
$w = new RedisLock($server);
$wokenFirst = false;
for ($try = 1; $try <= 3 && !$wokenFirst; $try++) {
    $tw = $w->lock('o254-w', 300000);
    $waiter = rl_php_child_start('
        $l = new RedisLock(' . var_export($server, true) . ');
        $c = new RlTestRedis(' . var_export($server, true) . ');
        $t = $l->lock("o254-w", 300000, 300.0);
        rl_wait_until(fn() => $c->get("o254-w-go") !== null, 300.0);   // holds until the test has seen the watch
        $l->unlock("o254-w", $t);');
    $queued = $nextThat(fn($e) => $e['event'] === 'state' && str_contains($e['state'], 'waiters 1'), $patience);
    $inRead = rl_wait_until(fn() => $blockedReads() >= 2, $patience);
    $w->unlock('o254-w', $tw);
    $after = $next($patience);
    $wokenFirst = $queued !== null && ($after['event'] ?? '') === 'woken';
    if (!$inRead) {
        $try = 3;   // a watch never seen in its read: no race to run again for
    } elseif (!$wokenFirst && $try < 3) {
        rl_test_note("watch try $try: after the release it showed " . $shown($after)
            . " first (the release fell between two of its reads?); not counted, run again");
    }
    $r->set('o254-w-go', '1');
    $waiter->wait($patience);
    $r->del('o254-w-go');
    // the lines left of this try show no waiter: the next try's 'waiters 1' is its own
}
proc_terminate($proc);
fclose($pipes[0]);
fclose($pipes[1]);
fclose($pipes[2]);
proc_close($proc);
echo "watch: ", implode(' | ', [$shown($first), $shown($queued), $shown($after)]), $inRead ? '' : ' (NEVER SEEN IN ITS READ)', "\n";
echo "woken at the release, not at the next look: ", $wokenFirst ? 'yes' : 'NO', "\n";
echo "watch(): ", var_export($w->watch('o254-w', 0.05), true), " after 50 ms with nothing released\n";

echo "-- bad input, unreachable servers\n";
foreach ([[], ['bogus'], ['show'], ['show', 'a', 'b'], ['--sentinel', '127.0.0.1:1', 'show', 'x'], ['--frobnicate', 'show', 'x'],
          ['-s', 'redis://someone:s3cret@[bad', 'show', 'x'], ['--timeout', '-1', 'show', 'x'],
          ['-s', "redis://someone:s3cret@$dead", 'show', 'x'], ['-s', $dead, 'release', 'x', '--yes'],
          ['list', 'a', 'b'], ['-s', $server, '--limit', '0', 'list'], ['-s', $dead, 'list'],
          ['-s', $server, '--for', '0', 'watch', 'x']] as $args) {
    [$rc, $out, $err] = rl_cli(...$args);
    echo "exit $rc, ", substr_count($err, "\n") === 1 && $out === '' ? 'one line' : 'NOT ONE LINE', str_contains($err, 's3cret') ? ', PASSWORD SHOWN' : '',
        ": ", str_replace($dead, 'DEAD', $err);
}
try {
    (new RedisLock($server))->inspect('');
} catch (ValueError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
try {
    (new RedisLock($server))->watch('x', 0.0);
} catch (ValueError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
-- free
exit 0
resource o254 (key lock:o254)
node             kind  holders  ttl  waiters  fence
NODE  free  0        -    0        -
-- a lock, its fence counter, two waiters
exit 0
resource o254 (key lock:o254)
node             kind  holders  ttl%swaiters  fence
NODE  lock  1        T s  2        1
json: exit 0, kind lock, holders 1, waiters 2, fence 1, ttl 300 s less the time since the lock, node ours
inspect(): lock, 1 holder, 2 waiters, key lock:o254
-- release
off a terminal, no --yes: exit 2, redislock: release asks before it releases: give --yes when not at a terminal (redislock --help shows the usage)
still held: yes
exit 0: released "o254" (was: lock, 1 holder(s)), by USER@HOST, pid N
held by the holder: no
waiters: got it, got it
again: exit 1, redislock: "o254" was not held: nothing released
-- a shared lock, a semaphore, another prefix
exit 0: NODE  shared  2        T s  0        -
exit 0: NODE  semaphore  2        T s  0        -
exit 0: NODE  lock  1        T s  0        -
-- holder names (option holder_names): the host, pid and script; never an owner's own token
inspect(): host, pid, cli and the script; the token's random part shown: no
show: held by: HOST pid=PID cli SCRIPT
an owner's token: [], plain tokens: []
a web request's name: HOST pid=PID GET /hold.php
the named token works as any: true
-- list (SCAN, never KEYS): the locks above, not their queues, fence counters or other keys
exit 0
resource  node  kind  holders  ttl  waiters  fence
o254-sem  NODE  semaphore  2  T s  0  -
o254-shared  NODE  shared  2  T s  0  -
locks(): ["o254-sem","o254-shared"]; with a limit of 1: 1
json: exit 0, [["o254-sem","semaphore",2],["o254-shared","shared",2]]
exit 0: no locks
-- RedLock: node by node
exit 0
resource o254-shared (key lock:o254-shared)
node%s kind    holders  ttl%s waiters  fence
NODE1%s shared  2        T s  0        -
NODE2%s free    0        -%s 0        -
DEAD%s error: connect: Connection refused
inspect(): each node, or its error
-- watch: a line at each change, at once when a release wakes a waiter (else a look each second)
watch --for 0.2: exit 0; free, holders 0, waiters 0, fence -
watch: free, holders 0, waiters 0, fence - | lock, holders 1, waiters 1, fence - | woken
woken at the release, not at the next look: yes
watch(): false after 50 ms with nothing released
-- bad input, unreachable servers
exit 2, one line: redislock: no command (redislock --help shows the usage)
exit 2, one line: redislock: unknown command "bogus" (redislock --help shows the usage)
exit 2, one line: redislock: show takes 1 argument (RESOURCE) (redislock --help shows the usage)
exit 2, one line: redislock: show takes 1 argument (RESOURCE) (redislock --help shows the usage)
exit 2, one line: redislock: --sentinel needs --service NAME (the master the sentinels watch) (redislock --help shows the usage)
exit 2, one line: redislock: unknown option --frobnicate (redislock --help shows the usage)
exit 2, one line: redislock: RedisLock::__construct(): Argument #1 ($server) must be a valid server address ("redis://***@[bad"): malformed IPv6 address, expected [addr]:port (redislock --help shows the usage)
exit 2, one line: redislock: --timeout must be a number of seconds above 0, not "-1" (redislock --help shows the usage)
exit 1, one line: redislock: Redis node DEAD: connect: Connection refused
exit 1, one line: redislock: Redis node DEAD: connect: Connection refused
exit 2, one line: redislock: list takes at most 1 argument (PATTERN) (redislock --help shows the usage)
exit 2, one line: redislock: --limit must be a number from 1 to 1000000, not "0" (redislock --help shows the usage)
exit 1, one line: redislock: Redis node DEAD: connect: Connection refused
exit 2, one line: redislock: --for must be a number of seconds above 0 and at most a year, not "0" (redislock --help shows the usage)
ValueError: RedisLock::inspect(): Argument #1 ($resource) must not be empty
ValueError: RedisLock::watch(): Argument #2 ($timeout) must be a number of seconds above 0 and at most 3600
