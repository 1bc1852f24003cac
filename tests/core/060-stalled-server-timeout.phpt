--TEST--
Stalled server (SIGSTOP): lock() throws "timed out" after about 'timeout'; the only node is asked again by the next calls (the quorum cannot be had without it), each bounded by 'timeout'; after resume calls succeed on a clean connection
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$vg = rl_under_valgrind();
// Each call waits out its 0.3 s timeout: at least that long (a timeout does
// not fire early), and the message says it timed out after 300 ms. The upper
// bound only says it did not hang (10x the timeout): a busy machine makes a
// closer one false.
$hang = $vg ? 30.0 : 3.0;
$server = new RlTestServer();
$port = (string)$server->port();
$r = $server->client();
$me = $r->cmd('CLIENT', 'ID');
$ours = fn() => array_values(array_diff(array_map(fn($c) => (int)$c['id'], $r->clientList()), [$me]));

$lock = new RedisLock($server->addr(), ['timeout' => 0.3]);
$ta = $lock->lock('a', 60000);
var_dump($r->get('lock:a') === $ta);
[$firstConn] = $ours();
// held by someone else: the right answer to lock('c') is null
$r->set('lock:c', 'someone-else', 'PX', 120000);

$call = function (callable $f) use ($port) {
    $t0 = hrtime(true);
    try {
        $res = var_export($f(), true);
    } catch (RedisLockException $e) {
        $res = get_class($e) . ': ' . str_replace($port, 'PORT', $e->getMessage());
    }
    return [$res, (hrtime(true) - $t0) / 1e9];
};

echo "-- paused\n";
$server->pause();
[$res, $s] = $call(fn() => $lock->lock('b', 60000));
$failedAt = hrtime(true);
echo $res, "\n";
var_dump(str_contains($res, 'timed out'));
echo "waited the timeout, did not hang: ", ($s >= 0.25 && $s < $hang) ? 'yes' : "no ($s s)", "\n";

[$res, $s] = $call(fn() => $lock->lock('b', 60000));
echo $res, "\n";
var_dump(str_contains($res, 'timed out'));
echo "asked again, waited the timeout, did not hang: ", ($s >= 0.25 && $s < $hang) ? 'yes' : "no ($s s)", "\n";

[$res, $s] = $call(fn() => $lock->unlock('a', $ta));
echo "unlock: ", str_contains($res, 'RedisLockConnectionException') ? 'exception' : $res, "\n";
echo $res, "\n";
echo "asked again, waited the timeout, did not hang: ", ($s >= 0.25 && $s < $hang) ? 'yes' : "no ($s s)", "\n";

echo "-- resumed, after the down window\n";
$server->resume();
$left = 1.3 - (hrtime(true) - $failedAt) / 1e9;
if ($left > 0) {
    usleep((int)($left * 1e6));
}
// the connection that timed out with a reply unread is gone for good
var_dump(rl_wait_until(fn() => !in_array($firstConn, $ours(), true), 5.0));

// were the stale reply (to SET lock:b) taken as the answer, this would not be null
[$res] = $call(fn() => $lock->lock('c', 60000));
echo "lock(c) held by another: $res\n";
$td = $lock->lock('d', 60000);
var_dump(is_string($td) && $r->get('lock:d') === $td);
// the unlock that timed out had gone out: the server ran it when it resumed
var_dump($r->exists('lock:a'));
$ta2 = $lock->lock('a', 60000);
var_dump(is_string($ta2) && $ta2 !== $ta && $r->get('lock:a') === $ta2);
var_dump($lock->unlock('a', $ta2), $lock->unlock('a', $ta2), $r->exists('lock:a'));
var_dump($lock->unlock('d', $td), $r->exists('lock:d'));
var_dump($r->get('lock:c'));
$now = $ours();
echo "connections: ", count($now), "\n";
var_dump($now[0] !== $firstConn);
?>
--EXPECTF--
bool(true)
-- paused
RedisLockConnectionException: Redis node 127.0.0.1:PORT: timed out: no reply within 300 ms
bool(true)
waited the timeout, did not hang: yes
RedisLockConnectionException: Redis node 127.0.0.1:PORT: timed out: no reply within 300 ms
bool(true)
asked again, waited the timeout, did not hang: yes
unlock: exception
RedisLockConnectionException: Redis node 127.0.0.1:PORT: timed out: no reply within 300 ms
asked again, waited the timeout, did not hang: yes
-- resumed, after the down window
bool(true)
lock(c) held by another: NULL
bool(true)
int(0)
bool(true)
bool(true)
bool(false)
int(0)
bool(true)
int(0)
string(12) "someone-else"
connections: 1
bool(true)
