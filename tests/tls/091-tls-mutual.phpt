--TEST--
TLS: mutual TLS (--tls-auth-clients yes) with a client certificate, its key plain or encrypted; no client certificate is refused with the reason
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); rl_skip_unless_tls(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../tls.inc';

$pki = new RlTestPki();
$s = rl_tls_server($pki, ['--tls-auth-clients', 'yes']);
$r = $s->client();
$ca = $pki->path('ca.crt');

$l = new RedisLock($s->tlsAddr(), ['tls' => ['cafile' => $ca, 'local_cert' => $pki->path('client.crt'),
                                             'local_pk' => $pki->path('client.key')]]);
$t = $l->lock('t091', 10000);
var_dump(is_string($t), $r->get('lock:t091') === $t, $l->unlock('t091', $t));

// the key encrypted with a passphrase
$l = new RedisLock($s->tlsAddr(), ['tls' => ['cafile' => $ca, 'local_cert' => $pki->path('client.crt'),
    'local_pk' => $pki->path('client-enc.key'), 'passphrase' => 's3cret-Passphrase']]);
var_dump($l->acquireLock('e091', 10), $r->exists('lock:e091'), $l->releaseLock('e091'));

// no client certificate: the server's alert, said plainly (or, when the server's
// reset beats its alert to us, the reset and that a certificate was asked for)
foreach ([['cafile' => $ca], ['cafile' => $ca, 'peer_name' => 'localhost']] as $o) {
    try {
        (new RedisLock($s->tlsAddr(), ['tls' => $o]))->lock('n091', 1000);
        echo "no exception\n";
    } catch (RedisLockConnectionException $e) {
        echo rl_tls_msg($e, $s), "\n";
    }
}
echo "connections: ", count(RedisLock::stats()['connections']), "\n";
var_dump($r->keys('lock:*'));
?>
--EXPECTF--
bool(true)
bool(true)
bool(true)
bool(true)
int(1)
bool(true)
RedisLockConnectionException (12): Redis node 127.0.0.1:P: TLS: %sclient certificate%s(option tls.local_cert)
RedisLockConnectionException (12): Redis node 127.0.0.1:P: TLS: %sclient certificate%s(option tls.local_cert)
connections: 4
array(0) {
}
