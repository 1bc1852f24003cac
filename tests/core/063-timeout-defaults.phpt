--TEST--
Default timeout and connect_timeout are 1.0 s (no INI, no option)
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
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
posix
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

// the message says how long each waited; the time only that it waited at
// least that (a timeout does not fire early) and did not hang (10x): a busy
// machine makes a closer upper bound false
$hi = rl_under_valgrind() ? 30.0 : 10.0;
$server = new RlTestServer();
$ctx = stream_context_create(['socket' => ['backlog' => 0]]);
$srv = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr,
                            STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $ctx);
$blackhole = stream_socket_get_name($srv, false);
$fill = [];
for ($i = 0; $i < 16 && ($c = @stream_socket_client("tcp://$blackhole", $errno, $errstr, 0.2)); $i++) {
    $fill[] = $c;
}

// a fresh php: nothing but the built-in defaults
[$code, $out, $err] = rl_php_child(<<<PHP
    var_dump(ini_get('redislock.timeout'), ini_get('redislock.connect_timeout'));
    foreach (['{$server->addr()}' => 'reply', '$blackhole' => 'connect'] as \$addr => \$what) {
        \$lock = new RedisLock(\$addr);
        if (\$what === 'reply') {
            \$lock->lock('warm', 1000);        // connected while the server still answers
            posix_kill({$server->pid()}, SIGSTOP);
        }
        \$t0 = hrtime(true);
        try {
            \$lock->lock('x', 1000);
            echo "\$what: no exception\\n";
        } catch (RedisLockConnectionException \$e) {
            \$s = (hrtime(true) - \$t0) / 1e9;
            echo "\$what: ", str_replace(\$addr, 'ADDR', \$e->getMessage()), ", ",
                (\$s >= 0.95 && \$s < $hi) ? 'at least 1 s, did not hang' : "\$s s", "\\n";
        }
        if (\$what === 'reply') {
            posix_kill({$server->pid()}, SIGCONT);
        }
    }
    PHP);
echo "exit code: $code\n", $out, $err;
?>
--EXPECT--
exit code: 0
string(3) "1.0"
string(3) "1.0"
reply: Redis node ADDR: timed out: no reply within 1000 ms, at least 1 s, did not hang
connect: Redis node ADDR: connect timed out after 1000 ms, at least 1 s, did not hang
