--TEST--
connect_timeout (option and INI, float seconds): a listener that never completes the handshake fails with "connect timed out after N ms", not before that long
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
// Needs a kernel that drops SYNs to a full accept queue (Linux does unless
// net.ipv4.tcp_abort_on_overflow=1): then a connect() there hangs.
$srv = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN,
                            stream_context_create(['socket' => ['backlog' => 0]]));
$addr = stream_socket_get_name($srv, false);
for ($i = 0, $fill = []; $i < 16 && ($c = @stream_socket_client("tcp://$addr", $errno, $errstr, 0.2)); $i++) {
    $fill[] = $c;
}
if ($i === 16 || $errno !== 110) {
    die("skip connects to a full accept queue do not hang here ($errstr)");
}
?>
--EXTENSIONS--
redislock
--INI--
redislock.connect_timeout=1.5
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$vg = rl_under_valgrind();
// A listening socket that never accept()s, with its accept queue filled:
// the kernel drops further SYNs, so a connect() hangs.
$ctx = stream_context_create(['socket' => ['backlog' => 0]]);
$srv = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr,
                            STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $ctx);
$addr = stream_socket_get_name($srv, false);
$port = substr($addr, strrpos($addr, ':') + 1);
$fill = [];
for ($i = 0; $i < 16; $i++) {
    $c = @stream_socket_client("tcp://$addr", $errno, $errstr, 0.2);
    if (!$c) {
        break;
    }
    $fill[] = $c;
}
echo "queue full: ", $i < 16 ? 'yes' : 'no', "\n";

$call = function (callable $f) use ($port) {
    $t0 = hrtime(true);
    try {
        $res = var_export($f(), true);
    } catch (RedisLockException $e) {
        $res = get_class($e) . ': ' . str_replace($port, 'PORT', $e->getMessage());
    }
    return [$res, (hrtime(true) - $t0) / 1e9];
};

// Each connect waits at least its timeout (it does not fire early) and the
// message says how long; the upper bound only says it did not hang (10x the
// timeout): a busy machine makes a closer one false.
$hang = fn(float $timeout) => ($vg ? 30 : 10) * $timeout;

echo "-- option 'connect_timeout' => 0.3\n";
$lock = new RedisLock($addr, ['connect_timeout' => 0.3]);
[$res, $s] = $call(fn() => $lock->lock('a', 1000));
echo $res, "\n";
echo "at least 0.3 s, did not hang: ", ($s >= 0.25 && $s < $hang(0.3)) ? 'yes' : "no ($s s)", "\n";
[$res, $s] = $call(fn() => $lock->acquireLock('a', 1));
echo $res, "\n";
echo "the only node, asked again: at least 0.3 s, did not hang: ", ($s >= 0.25 && $s < $hang(0.3)) ? 'yes' : "no ($s s)", "\n";

echo "-- the INI's 1.5 s (own connection)\n";
[$res, $s] = $call(fn() => (new RedisLock($addr, ['persistent' => false]))->lock('a', 1000));
echo $res, "\n";
echo "at least 1.5 s, did not hang: ", ($s >= 1.4 && $s < $hang(1.5)) ? 'yes' : "no ($s s)", "\n";
?>
--EXPECTF--
queue full: yes
-- option 'connect_timeout' => 0.3
RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect timed out after 300 ms
at least 0.3 s, did not hang: yes
RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect timed out after 300 ms
the only node, asked again: at least 0.3 s, did not hang: yes
-- the INI's 1.5 s (own connection)
RedisLockConnectionException: Redis node 127.0.0.1:PORT: connect timed out after 1500 ms
at least 1.5 s, did not hang: yes
