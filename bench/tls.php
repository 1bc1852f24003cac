<?php
/*
 * Lock + unlock over TLS, one request's worth each cycle (a new object, lock,
 * unlock), side by side in one run:
 *   - redislock, persistent (the pooled TLS connection is reused),
 *   - redislock, persistent => false (a TLS handshake per object),
 *   - phpredis tls:// with pconnect, and with connect (a handshake per cycle),
 *   - redislock over plaintext, for the cost of TLS itself.
 *   php -d extension=modules/redislock.so bench/tls.php [CYCLES]
 * Makes its own certificates and redis-server (tests/tls.inc). Rounds
 * interleave the variants; the table shows the median round.
 */
require __DIR__ . '/../tests/tls.inc';

$cycles = (int)($argv[1] ?? 300);
$rounds = 5;
$pki = new RlTestPki();
$s = rl_tls_server($pki);
$ca = $pki->path('ca.crt');
$tls = ['tls' => ['cafile' => $ca]];
$release = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

$variants = [
    'redislock TLS, persistent' => function (int $i) use ($s, $tls) {
        $l = new RedisLock($s->tlsAddr(), $tls);
        $t = $l->lock("b$i", 10000);
        $l->unlock("b$i", $t);
    },
    'redislock TLS, persistent => false' => function (int $i) use ($s, $tls) {
        $l = new RedisLock($s->tlsAddr(), $tls + ['persistent' => false]);
        $t = $l->lock("b$i", 10000);
        $l->unlock("b$i", $t);
    },
    'redislock plaintext, persistent' => function (int $i) use ($s) {
        $l = new RedisLock($s->addr());
        $t = $l->lock("b$i", 10000);
        $l->unlock("b$i", $t);
    },
];
if (class_exists('Redis')) {
    foreach (['pconnect', 'connect'] as $how) {
        $variants["phpredis tls:// $how"] = function (int $i) use ($s, $ca, $how, $release) {
            $r = new Redis();
            $r->$how('tls://127.0.0.1', $s->tlsPort, 1.0, $how === 'pconnect' ? 'bench' : null, 0, 0,
                ['stream' => ['cafile' => $ca, 'verify_peer' => true, 'verify_peer_name' => true]]);
            $t = bin2hex(random_bytes(16));
            $r->set("lock:b$i", $t, ['nx', 'px' => 10000]);
            $r->eval($release, ["lock:b$i", $t], 1);
            if ($how === 'connect') {
                $r->close();
            }
        };
    }
}

$times = [];
foreach ($variants as $name => $f) {
    $f(0); // warm up: connections, scripts
}
for ($round = 0; $round < $rounds; $round++) {
    foreach ($variants as $name => $f) {
        $start = hrtime(true);
        for ($i = 0; $i < $cycles; $i++) {
            $f($i);
        }
        $times[$name][] = (hrtime(true) - $start) / 1e3 / $cycles;
    }
}
$base = null;
printf("%-38s %12s %8s\n", "TLS lock + unlock, new object per cycle", "us/cycle", "ratio");
foreach ($times as $name => $t) {
    sort($t);
    $median = $t[intdiv(count($t), 2)];
    $base ??= $median;
    printf("%-38s %12.1f %7.2fx\n", $name, $median, $median / $base);
}
