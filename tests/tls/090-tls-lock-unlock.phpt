--TEST--
TLS: lock, extend, unlock over tls:// and rediss:// on a redis-server --tls-port (certificates made by the test)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); rl_skip_unless_tls(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../tls.inc';

$pki = new RlTestPki();
$s = rl_tls_server($pki);
$r = $s->client();
$tls = ['tls' => ['cafile' => $pki->path('ca.crt')]];

$l = new RedisLock($s->tlsAddr(), $tls);
$t = $l->lock('t090', 10000);
var_dump(is_string($t), $r->get('lock:t090') === $t);
var_dump($l->extend('t090', $t, 20000), $r->pttl('lock:t090') > 10000);
var_dump($l->unlock('t090', $t), $r->exists('lock:t090'));

// the URL form, with a database; "localhost" is in the certificate too
$l = new RedisLock("rediss://localhost:{$s->tlsPort}/2", $tls);
var_dump($l->acquireLock('u090', 10), $r->cmd('SELECT', 2), $r->exists('lock:u090'), $l->releaseLock('u090'));

// verify_peer => false: no CA needed (and no check: for tests only)
$l = new RedisLock($s->tlsAddr(), ['tls' => ['verify_peer' => false]]);
var_dump($l->acquireLock('v090', 10), $l->releaseLock('v090'));

// a waiter over TLS (its blocking reads on a second, "wait" connection):
// the holder's 300 ms TTL ends, the waiter has the lock
$a = new RedisLock($s->tlsAddr(), $tls);
$b = new RedisLock($s->tlsAddr(), $tls);
$r->cmd('SELECT', 0);
$ta = $a->lock('w090', 300);
$tb = $b->lock('w090', 10000, 5.0);
var_dump(is_string($ta), is_string($tb) && $tb !== $ta && $r->get('lock:w090') === $tb, $b->unlock('w090', $tb));

foreach (RedisLock::stats()['connections'] as $c) {
    echo str_replace((string)$s->tlsPort, 'P', $c['endpoint']), " db {$c['database']} {$c['role']} tls ",
        var_export($c['tls'], true), " connects {$c['connects']}\n";
}
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
string(2) "OK"
int(1)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
127.0.0.1:P db 0 command tls true connects 1
localhost:P db 2 command tls true connects 1
127.0.0.1:P db 0 command tls true connects 1
127.0.0.1:P db 0 wait tls true connects 1
