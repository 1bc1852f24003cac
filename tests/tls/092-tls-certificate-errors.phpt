--TEST--
TLS: wrong CA, wrong peer name (accepted with verify_peer_name => false), expired certificate, plaintext port: each a RedisLockConnectionException saying what failed
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); rl_skip_unless_tls(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../tls.inc';

$pki = new RlTestPki();
$s = rl_tls_server($pki);
$expired = rl_tls_server($pki, [], 'expired');
$ca = $pki->path('ca.crt');

$try = function (string $what, string $addr, array $tls, RlTestTlsServer $srv) {
    try {
        $l = new RedisLock($addr, ['tls' => $tls, 'connect_timeout' => rl_under_valgrind() ? 5 : 0.5]);
        $t = $l->lock('t092', 30000);   // a TTL no slow first unlock() outlives (valgrind on a loaded machine took more than 1 s)
        echo "$what: locked: ", var_export(is_string($t) && $l->unlock('t092', $t), true), "\n";
    } catch (RedisLockException|ValueError $e) {
        echo "$what: ", rl_tls_msg($e, $srv), "\n";
    }
};
$try('right CA', $s->tlsAddr(), ['cafile' => $ca], $s);
$try('wrong CA', $s->tlsAddr(), ['cafile' => $pki->path('other-ca.crt')], $s);
$try('CA directory without it', $s->tlsAddr(), ['capath' => $pki->dir . '/nothing'], $s);
$try('wrong peer name', $s->tlsAddr(), ['cafile' => $ca, 'peer_name' => 'redis.example.com'], $s);
$try('wrong name, not checked', $s->tlsAddr(), ['cafile' => $ca, 'peer_name' => 'redis.example.com', 'verify_peer_name' => false], $s);
$try('peer name localhost', $s->tlsAddr(), ['cafile' => $ca, 'peer_name' => 'localhost'], $s);
$try('expired', $expired->tlsAddr(), ['cafile' => $ca], $expired);
$try('expired, not verified', $expired->tlsAddr(), ['verify_peer' => false], $expired);
$try('plaintext port', "tls://127.0.0.1:{$s->port()}", ['cafile' => $ca], $s);
?>
--EXPECTF--
right CA: locked: true
wrong CA: RedisLockConnectionException (12): Redis node 127.0.0.1:P: TLS: certificate verify failed: %s (unknown CA: see option tls.cafile)
CA directory without it: ValueError (0): RedisLock::__construct(): Argument #2 ($options) option "tls" key "capath": directory "%s/nothing" does not exist
wrong peer name: RedisLockConnectionException (12): Redis node 127.0.0.1:P: TLS: certificate verify failed: hostname mismatch: the certificate is not for "redis.example.com" (option tls.peer_name)
wrong name, not checked: locked: true
peer name localhost: locked: true
expired: RedisLockConnectionException (12): Redis node 127.0.0.1:P: TLS: certificate verify failed: certificate has expired
expired, not verified: locked: true
plaintext port: RedisLockConnectionException (2): Redis node 127.0.0.1:%d: TLS handshake timed out after %d ms (not a TLS port?)
