--TEST--
TLS: the persistent connection is reused (1 handshake for 50 cycles, also after the server's session tickets and idle pauses); persistent => false handshakes per object; different TLS settings never share a connection
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
$received = fn() => (int)$r->info('stats')['total_connections_received'];
$tls = ['tls' => ['cafile' => $pki->path('ca.crt')]];

$before = $received();
$bad = 0;
for ($i = 0; $i < 50; $i++) {
    $l = new RedisLock($s->tlsAddr(), $tls);
    $t = $l->lock("r$i", 10000);
    $bad += !(is_string($t) && $l->unlock("r$i", $t));
    if ($i % 10 === 0) {
        usleep(30000);   // older than 20 ms: the liveness look runs (and reads tickets inside SSL)
    }
}
echo "wrong results: $bad\n";
echo "connections for 50 persistent cycles: ", $received() - $before, "\n";
$row = RedisLock::stats()['connections'][0];
echo "pool row: connects {$row['connects']}, reconnects {$row['reconnects']}, dropped {$row['dropped']}\n";

$before = $received();
for ($i = 0; $i < 5; $i++) {
    $l = new RedisLock($s->tlsAddr(), $tls + ['persistent' => false]);
    $t = $l->lock("p$i", 10000);
    $l->unlock("p$i", $t);
    unset($l);
}
echo "connections for 5 non-persistent objects: ", $received() - $before, "\n";

// other settings, same server: a connection of their own each
$before = $received();
foreach ([['cafile' => $pki->path('ca.crt'), 'peer_name' => 'localhost'],
          ['verify_peer' => false],
          ['cafile' => $pki->path('ca.crt'), 'local_cert' => $pki->path('client.crt'), 'local_pk' => $pki->path('client.key')],
          ['cafile' => $pki->path('ca.crt'), 'local_cert' => $pki->path('client.crt'), 'local_pk' => $pki->path('client-enc.key'), 'passphrase' => 's3cret-Passphrase'],
          ['cafile' => $pki->path('ca.crt')]] as $o) {
    $l = new RedisLock($s->tlsAddr(), ['tls' => $o]);
    var_dump($l->acquireLock('k', 10) && $l->releaseLock('k'));
}
echo "connections for 4 new settings and 1 known: ", $received() - $before, "\n";
echo "pool rows: ", count(RedisLock::stats()['connections']), "\n";
// killed by the server: found before use, replaced
$r->cmd('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
usleep(50000);
$l = new RedisLock($s->tlsAddr(), $tls);
var_dump($l->acquireLock('k', 10) && $l->releaseLock('k'));
?>
--EXPECT--
wrong results: 0
connections for 50 persistent cycles: 1
pool row: connects 1, reconnects 0, dropped 0
connections for 5 non-persistent objects: 5
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
connections for 4 new settings and 1 known: 4
pool rows: 5
bool(true)
