--TEST--
TLS: valkeys:// works as rediss:// (password and database from the URL, the option tls, certificate checks); the option tls with a valkey:// address is a ValueError; no password in any message
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); rl_skip_unless_tls(); ?>
--EXTENSIONS--
redislock
--INI--
zend.exception_ignore_args=0
--FILE--
<?php
require __DIR__ . '/../tls.inc';

$pki = new RlTestPki();
$s = rl_tls_server($pki, ['--requirepass', 'T099-pw']);
$r = $s->client('T099-pw');
$tls = ['tls' => ['cafile' => $pki->path('ca.crt')]];
$seen = '';

// "localhost" is in the server's certificate; the database from the path
$l = new RedisLock("valkeys://:T099-pw@localhost:{$s->tlsPort}/2", $tls);
$t = $l->lock('u099', 10000);
$r->cmd('SELECT', 2);
var_dump(is_string($t), $r->get('lock:u099') === $t, $l->extend('u099', $t, 20000), $l->unlock('u099', $t),
    $r->exists('lock:u099'));
foreach (RedisLock::stats()['connections'] as $c) {
    echo str_replace((string)$s->tlsPort, 'P', $c['endpoint']), " db {$c['database']} {$c['role']} tls ",
        var_export($c['tls'], true), "\n";
}

$fails = [
    // TLS is really spoken: without our CA the certificate is refused
    'no cafile' => fn() => (new RedisLock("valkeys://:T099-pw@localhost:{$s->tlsPort}", ['timeout' => 2]))->lock('v099', 1000),
    // valkeys:// to the plaintext port: no TLS server there
    'plain port' => fn() => (new RedisLock("valkeys://:T099-pw@127.0.0.1:{$s->port()}", $tls + ['connect_timeout' => 1]))->lock('v099', 1000),
    // the TLS port, a wrong password
    'wrong password' => fn() => (new RedisLock("valkeys://:T099-wrong@127.0.0.1:{$s->tlsPort}", $tls))->lock('v099', 1000),
    // the option tls with a plaintext valkey:// address: never a silent plaintext connection
    'tls option, valkey://' => fn() => new RedisLock("valkey://:T099-pw@127.0.0.1:{$s->tlsPort}", $tls),
];
foreach ($fails as $what => $f) {
    try {
        $f();
        echo "$what: no exception\n";
    } catch (Throwable $e) {
        $seen .= (string)$e;
        // a server's plaintext port either waits for the end of a line (a timeout) or answers the ClientHello
        $code = $what === 'plain port' && in_array($e->getCode(), [2, 12], true) ? '2 or 12' : $e->getCode();
        echo "$what: ", get_class($e), " ($code)\n";
        if ($what === 'tls option, valkey://') {
            echo $e->getMessage(), "\n";
        }
    }
}
echo "a password anywhere: ", var_export(str_contains($seen, 'T099'), true), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
localhost:P db 2 command tls true
no cafile: RedisLockConnectionException (12)
plain port: RedisLockConnectionException (2 or 12)
wrong password: RedisLockConnectionException (3)
tls option, valkey://: ValueError (0)
RedisLock::__construct(): Argument #1 ($server) is not a TLS address (tls://host:port, rediss://... or valkeys://...), but Argument #2 ($options) has option "tls"
a password anywhere: false
