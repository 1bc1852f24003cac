--TEST--
TLS: a phpredis \Redis connected over tls:// (or ssl://, tlsv1.2://) is a TLS server: the extension talks TLS with its option "tls" (phpredis does not show its stream context), and without them the server's certificate is checked against the system's CAs, a failure that says so
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); rl_skip_unless_tls(); ?>
--EXTENSIONS--
redislock
redis
--FILE--
<?php
require __DIR__ . '/../tls.inc';

$pki = new RlTestPki();
$s = rl_tls_server($pki);
$r = $s->client();
$ca = $pki->path('ca.crt');

foreach (['tls', 'ssl', 'tlsv1.2'] as $transport) {
    $redis = new Redis();
    $redis->connect("$transport://127.0.0.1", $s->tlsPort, 5.0, null, 0, 5.0, ['stream' => ['cafile' => $ca]]);
    echo "$transport: phpredis ", $redis->ping() ? 'answered' : 'did not', "\n";
    $l = new RedisLock($redis, ['tls' => ['cafile' => $ca]]);
    $t = $l->lock("t112$transport", 10000);
    var_dump($r->get("lock:t112$transport") === $t, $l->unlock("t112$transport", $t));
    try {
        (new RedisLock($redis))->lock('n112', 1000);
        echo "no exception\n";
    } catch (RedisLockConnectionException $e) {
        echo rl_tls_msg($e, $s), "\n";
    }
}
var_dump($r->keys('lock:*'));
?>
--EXPECT--
tls: phpredis answered
bool(true)
bool(true)
RedisLockConnectionException (12): Redis node 127.0.0.1:P: TLS: certificate verify failed: self-signed certificate in certificate chain (unknown CA: see option tls.cafile)
ssl: phpredis answered
bool(true)
bool(true)
RedisLockConnectionException (12): Redis node 127.0.0.1:P: TLS: certificate verify failed: self-signed certificate in certificate chain (unknown CA: see option tls.cafile)
tlsv1.2: phpredis answered
bool(true)
bool(true)
RedisLockConnectionException (12): Redis node 127.0.0.1:P: TLS: certificate verify failed: self-signed certificate in certificate chain (unknown CA: see option tls.cafile)
array(0) {
}
