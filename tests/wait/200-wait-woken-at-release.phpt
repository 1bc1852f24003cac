--TEST--
Waiting: a waiter is woken by the release, not by its next look at the lock
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

// A waiter blocks on its wake stream (XREAD BLOCK on a connection of its own)
// until a release names it, or until its next look at the lock (2 s at most,
// RECHECK_MAX_US; sooner at the holder's TTL end). Counting its commands does
// not tell the two apart: a woken waiter too looks again every 2 s while the
// lock is held, and after the release either takes it with one script. What
// does is what ends that XREAD: the release's XADD, or the XREAD's timeout.
// Redis unblocks the XREADs a command's XADDs serve before it sends that
// command's reply, so once unlock() has returned the waiter's XREAD is no
// longer blocked on the server if the release woke it, however loaded the
// machine (no time bound). One not woken stays blocked until its timeout,
// nearly 2 s away: the release comes right after its first XREAD starts, and
// the test looks right after the release (only a timeout falling between the
// two, a few ms of those 2 s, would hide it). A waiter that read the wake but
// blocked again (not taking it for its own) is caught by step 3.
// Private server: its CLIENT LIST and command counts are this test's alone.
$srv = new RlTestServer();
$r = $srv->client();
$slow = rl_under_valgrind();

/** "calls" of command $cmd in an INFO commandstats text (no regex: PCRE JIT is noise under valgrind) */
function rl200_calls(string $info, string $cmd): int
{
    foreach (explode("\r\n", $info) as $line) {
        if (str_starts_with($line, "cmdstat_$cmd:calls=")) {
            return (int)substr($line, strlen("cmdstat_$cmd:calls="));
        }
    }
    return 0;
}

/** CLIENT LIST text => id => flags of each client blocked in XREAD, or of all */
function rl200_clients(string $list, bool $xreadOnly): array
{
    $clients = [];
    foreach (explode("\n", trim($list)) as $line) {
        $c = [];
        foreach (explode(' ', trim($line)) as $field) {
            [$k, $v] = explode('=', $field, 2) + [1 => ''];
            $c[$k] = $v;
        }
        if (!$xreadOnly || ($c['cmd'] === 'xread' && str_contains($c['flags'], 'b'))) {
            $clients[$c['id']] = $c['flags'];
        }
    }
    return $clients;
}

// The holder is this process: it releases once the waiter is seen blocked.
// Its TTL outlasts a slow start of the waiter (valgrind, a loaded machine);
// the bounds below keep within run-tests' 60 s (valgrind: 300 s) per test.
// The waiter keeps its connections until the test has looked at them: it
// waits for the file $go before it releases and ends.
$holder = new RedisLock($srv->addr());
$token = $holder->lock('rl200', $slow ? 600000 : 120000);
$dir = rl_mktemp_dir('rl200-');
$go = "$dir/go";
$waiter = rl_php_child_start('$l = new RedisLock(' . var_export($srv->addr(), true) . ');
$t = $l->lock("rl200", 5000, ' . ($slow ? 200.0 : 40.0) . ');
echo "waiter acquired: ", is_string($t) ? "yes" : "no", "\n";
rl_wait_until(fn() => file_exists(' . var_export($go, true) . '), ' . ($slow ? 100 : 20) . ');
var_dump($l->unlock("rl200", $t));
');

// 1. The waiter waits blocked in XREAD on the server (not sleeping between looks).
$blocked = [];
$seen = rl_wait_until(function () use ($r, &$blocked) {
    $blocked = rl200_clients($r->cmd('CLIENT', 'LIST'), true);
    return count($blocked) > 0;
}, $slow ? 100 : 20);
echo "waiter blocked in XREAD: ", $seen && count($blocked) === 1 ? 'yes' : 'no (' . json_encode($blocked) . ')', "\n";
$waitConn = (string)array_key_first($blocked);

// 2. The release. Then, in one transaction, the waiter's connection and the XREADs so far.
var_dump($holder->unlock('rl200', $token));
$r->cmd('MULTI');
$r->cmd('CLIENT', 'LIST');
$r->cmd('INFO', 'commandstats');
[$list, $info] = $r->cmd('EXEC');
$clients = rl200_clients($list, false);
$xreads = rl200_calls($info, 'xread');
echo "its XREAD answered by the release: ",
    isset($clients[$waitConn]) && !str_contains($clients[$waitConn], 'b') ? 'yes'
        : 'no (flags ' . ($clients[$waitConn] ?? 'gone') . ')', "\n";

// 3. On that wake it took the lock, without blocking again.
touch($go);
[$code, $out, $err] = $waiter->wait($slow ? 100 : 20);
rl_rmtree($dir);
echo $out, $err, "waiter exit: $code\n";
$more = rl200_calls($r->cmd('INFO', 'commandstats'), 'xread') - $xreads;
echo "XREADs after the release: ", $more, "\n";
echo "keys left: ", count($r->keys('lock:rl200*')), "\n";
?>
--EXPECT--
waiter blocked in XREAD: yes
bool(true)
its XREAD answered by the release: yes
waiter acquired: yes
bool(true)
waiter exit: 0
XREADs after the release: 0
keys left: 0
