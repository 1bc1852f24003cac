--TEST--
TLS: the option "tls" checked (unknown keys, types, missing files, wrong passphrase, tls on a plaintext address); no passphrase or password in any output
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); rl_skip_unless_tls(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../tls.inc';

$pki = new RlTestPki();
$s = rl_tls_server($pki, ['--requirepass', 'T096-password']);
$ca = $pki->path('ca.crt');
$seen = '';
$cases = [
    [$s->tlsAddr(), ['tls' => ['cafile' => $ca, 'verify' => true]]],
    [$s->tlsAddr(), ['tls' => ['cafile' => $ca, 'verify_peer' => 1]]],
    [$s->tlsAddr(), ['tls' => ['cafile' => 7]]],
    [$s->tlsAddr(), ['tls' => 'yes']],
    [$s->tlsAddr(), ['tls' => ['cafile' => $pki->dir . '/missing.crt']]],
    [$s->tlsAddr(), ['tls' => ['cafile' => $ca, 'local_cert' => $pki->path('client.crt'), 'local_pk' => $pki->path('client-enc.key'), 'passphrase' => 'T096-wrong-passphrase']]],
    [$s->tlsAddr(), ['tls' => ['cafile' => $ca, 'local_pk' => $pki->path('client.key')]]],
    [$s->tlsAddr(), ['tls' => ['cafile' => $ca, 'local_cert' => $pki->path('client.crt'), 'local_pk' => $pki->path('server.key')]]],
    ["127.0.0.1:{$s->tlsPort}", ['tls' => ['cafile' => $ca]]],
    ["redis://127.0.0.1:{$s->tlsPort}", ['tls' => ['cafile' => $ca]]],
];
foreach ($cases as [$addr, $o]) {
    try {
        new RedisLock($addr, $o);
        echo "accepted\n";
    } catch (Throwable $e) {
        echo get_class($e), ": ", str_replace([$pki->dir, (string)$s->tlsPort], ['DIR', 'P'], $e->getMessage()), "\n";
        $seen .= (string)$e;
    }
}
// working, with a password and a client key passphrase
$l = new RedisLock("rediss://:T096-password@127.0.0.1:{$s->tlsPort}", ['tls' => ['cafile' => $ca,
    'local_cert' => $pki->path('client.crt'), 'local_pk' => $pki->path('client-enc.key'), 'passphrase' => 's3cret-Passphrase'],
    'logger' => function (...$a) use (&$seen) { $seen .= print_r($a, true); }]);
var_dump($l->acquireLock('k', 10), $l->releaseLock('k'));
try {
    (new RedisLock($s->tlsAddr(), ['tls' => ['cafile' => $ca], 'password' => 'T096-wrong']))->lock('x', 100);
} catch (RedisLockConnectionException $e) {
    echo "wrong password: code ", $e->getCode(), "\n";
    $seen .= (string)$e;
}
ob_start();
var_dump($l);
print_r(RedisLock::stats());
phpinfo(INFO_MODULES);
$seen .= ob_get_clean();
echo "secrets shown: ", var_export(str_contains($seen, 'Passphrase') || str_contains($seen, 'T096-password')
    || str_contains($seen, 'T096-wrong'), true), "\n";
?>
--EXPECTF--
ValueError: RedisLock::__construct(): Argument #2 ($options) option "tls" contains unknown key "verify"
TypeError: RedisLock::__construct(): Argument #2 ($options) option "tls" key "verify_peer" must be of type bool, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "tls" key "cafile" must be of type string, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "tls" must be of type array, string given
ValueError: RedisLock::__construct(): Argument #2 ($options) option "tls" key "cafile": file "DIR/missing.crt" does not exist
ValueError: RedisLock::__construct(): Argument #2 ($options) option "tls" key "local_pk": cannot load the private key (wrong or missing passphrase?): %s
ValueError: RedisLock::__construct(): Argument #2 ($options) option "tls" key "local_pk" needs "local_cert" too
ValueError: RedisLock::__construct(): Argument #2 ($options) option "tls" key "local_pk": cannot load the private key (wrong or missing passphrase?): key values mismatch
ValueError: RedisLock::__construct(): Argument #1 ($server) is not a TLS address (tls://host:port, rediss://... or valkeys://...), but Argument #2 ($options) has option "tls"
ValueError: RedisLock::__construct(): Argument #1 ($server) is not a TLS address (tls://host:port, rediss://... or valkeys://...), but Argument #2 ($options) has option "tls"
bool(true)
bool(true)
wrong password: code 3
secrets shown: false
