--TEST--
Waiting: a waiter reads its wake stream from where it stood when the waiter queued, not from its start: with 70 earlier wakes in every wake stream of the lock (a hot lock's), a waiter woken by the release sends one XREAD, and a once() waiter woken as done one too; wake stream keys of another type do not fail the waiter
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));

/** Fills every wake stream of lock:$res with 70 wakes of waiters long gone (one script: one round trip). */
function old_wakes(RlTestRedis $r, string $res): void
{
    $keys = array_map(fn($bucket) => rl_derived_key("lock:$res", $bucket), str_split('ABCDEFGHIJKLMNOP'));
    $r->cmd('EVAL', "for _, k in ipairs(KEYS) do for i = 0, 69 do redis.call('xadd', k, '*', 'w', string.format('%031xf', i)) end end",
        count($keys), ...$keys);
}

function calls(RlTestRedis $r, string $command): int
{
    return preg_match("/cmdstat_$command:calls=(\\d+)/", $r->cmd('INFO', 'commandstats'), $m) ? (int)$m[1] : 0;
}

$queued = fn(string $res) => rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key("lock:$res", 'q')) === 1, 30)
    && usleep(100000) === null;   // and its XREAD blocks by now

echo "-- a plain waiter, woken by the release\n";
$r->del(...$r->keys('lock:w207*') ?: ['lock:w207']);
old_wakes($r, 'w207');
$holder = new RedisLock(rl_test_server(0));
$t = $holder->lock('w207', 30000);
$r->cmd('CONFIG', 'RESETSTAT');
$child = rl_php_child_start('$l = new RedisLock(rl_test_server(0)); echo is_string($l->lock("w207", 30000, 20.0)) ? "took it" : "NO", "\n";');
var_dump($queued('w207'));
$holder->unlock('w207', $t);
[$exit, $out, $err] = $child->wait(30);
echo trim($out), $err, "; XREADs: ", calls($r, 'xread'), "\n";

echo "-- a once() waiter, woken as done\n";
$r->del(...$r->keys('lock:w207o*') ?: ['lock:w207o']);
old_wakes($r, 'w207o');
$child = null;
echo (new RedisLock(rl_test_server(0)))->once('w207o', function () use ($r, $queued, &$child) {
    $r->cmd('CONFIG', 'RESETSTAT');
    $child = rl_php_child_start('$l = new RedisLock(rl_test_server(0));
        echo $l->once("w207o", fn() => print("NO: ran\n"), 30000, 20.0) === RedisLock::ONCE_WAITED ? "woken as done" : "NO", "\n";');
    var_dump($queued('w207o'));
}), "\n";
[$exit, $out, $err] = $child->wait(30);
echo trim($out), $err, "; XREADs: ", calls($r, 'xread'), "\n";

echo "-- wake streams that are no streams: the waiter queues, and takes the lock when it ends\n";
$keys = array_map(fn($bucket) => rl_derived_key('lock:w207s', $bucket), str_split('ABCDEFGHIJKLMNOP'));
$r->del('lock:w207s', rl_derived_key('lock:w207s', 'q'), ...$keys);
foreach ($keys as $k) {
    $r->set($k, 'not a stream');
}
$holder = new RedisLock(rl_test_server(0));
$holder->lock('w207s', 500);                    // never released: it ends by its TTL
$w = new RedisLock(rl_test_server(0));
var_dump(is_string($w->lock('w207s', 30000, 10.0)));
$r->del('lock:w207s', rl_derived_key('lock:w207s', 'q'), ...$keys);
?>
--EXPECT--
-- a plain waiter, woken by the release
bool(true)
took it; XREADs: 1
-- a once() waiter, woken as done
bool(true)
1
woken as done; XREADs: 1
-- wake streams that are no streams: the waiter queues, and takes the lock when it ends
bool(true)
