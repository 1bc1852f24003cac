--TEST--
inspect() and the redislock command beside values over 64 KiB under the prefix (a cache entry with --prefix '', a semaphore's, a shared lock's holder): the state is shown, the big value never sent back (a reply stays under the client's bound, which is not raised); a holder's name beside them still shown; show, list, watch and release work; RedLock node by node
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(2); ?>
--FILE--
<?php
require __DIR__ . '/../cli.inc';

$server = rl_test_server(0);
$r = new RlTestRedis($server);
$big = str_repeat('v', 70000);   // over the 64 KiB a bulk reply may be
$r->del('c255:entry', 'lock:s255', rl_derived_key('lock:s255', 's'), 'lock:m255');
$r->set('c255:entry', $big);   // a cache entry, seen through an empty prefix
$r->set('lock:s255', "\0shared", 'PX', 60000);   // a shared lock with a hostile holder
$r->cmd('ZADD', rl_derived_key('lock:s255', 's'), (string)(time() * 1000 + 60000), $big);
$r->cmd('PEXPIRE', rl_derived_key('lock:s255', 's'), 60000);
$r->cmd('ZADD', 'lock:m255', (string)(time() * 1000 + 60000), $big);   // a semaphore's member
$named = new RedisLock($server, ['holder_names' => true]);
$named->acquirePermit('m255', 5, 60000) ?? print("NO PERMIT\n");   // a named holder beside it
$r->cmd('PEXPIRE', 'lock:m255', 60000);

$show = function (array $s): string {
    if (isset($s['nodes'])) {
        return implode(' | ', array_map(fn($n) => isset($n['error']) ? "error: {$n['error']}"
            : "{$n['kind']} {$n['holders']} names " . count($n['names']), $s['nodes']));
    }
    return "{$s['kind']} {$s['holders']} names " . count($s['names']);
};
echo "-- inspect()\n";
foreach ([[new RedisLock($server, ['prefix' => '']), 'c255:entry'], [new RedisLock($server), 's255'],
          [new RedisLock($server), 'm255'], [new RedLock([$server, rl_test_server(1)]), 'm255']] as [$l, $res]) {
    try {
        echo "$res: ", $show($l->inspect($res)), "\n";
    } catch (RedisLockException $e) {
        echo "$res: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
$names = $named->inspect('m255')['names'];
echo "the named holder: ", count($names) === 1 && str_starts_with($names[0], gethostname() . ' pid=') ? 'shown' : 'NO: ' . json_encode($names), "\n";

echo "-- the command, --prefix ''\n";
[$rc, $out, $err] = rl_cli('-s', $server, '--prefix', '', 'show', 'c255:entry');
echo "show: exit $rc, ", preg_replace('/^\S+:\d+ +/m', 'NODE  ', explode("\n", $out, 3)[2] ?? ''), $err;
[$rc, $out, $err] = rl_cli('-s', $server, '--prefix', '', 'list', 'c255:*');
echo "list: exit $rc, ", preg_replace(['/\S+:\d+ +/', '/ {2,}/'], ['NODE  ', '  '], explode("\n", $out, 2)[1] ?? ''), $err;
[$rc, $out, $err] = rl_cli('-s', $server, '--prefix', '', '--for', '0.2', 'watch', 'c255:entry');
echo "watch: exit $rc, ", preg_replace('/^ *\d+\.\d{3}  /m', '', $out), $err;
[$rc, $out, $err] = rl_cli('-s', $server, 'release', 'm255', '--yes');
echo "release: exit $rc, ", preg_replace('/by \S+@\S+, pid \d+/', 'by USER@HOST, pid N', $out), $err;
[$rc, $out, $err] = rl_cli('-s', $server, '--prefix', '', 'release', 'c255:entry', '--yes');
echo "release: exit $rc, ", preg_replace('/by \S+@\S+, pid \d+/', 'by USER@HOST, pid N', $out), $err;
$r->del('lock:s255', rl_derived_key('lock:s255', 's'));
?>
--EXPECT--
-- inspect()
c255:entry: lock 1 names 0
s255: shared 1 names 0
m255: semaphore 2 names 1
m255: semaphore 2 names 1 | free 0 names 0
the named holder: shown
-- the command, --prefix ''
show: exit 0, NODE  lock  1        -    0        -
list: exit 0, c255:entry  NODE  lock  1  -  0  -
watch: exit 0, lock, holders 1, waiters 0, fence -
release: exit 0, released "m255" (was: semaphore, 2 holder(s)), by USER@HOST, pid N
release: exit 0, released "c255:entry" (was: lock, 1 holder(s)), by USER@HOST, pid N
