--TEST--
on_lost: a callable gets (resource, token, 'lost') when the watchdog finds the key gone, and its exception reaches the busy code; RedLock: 'quorum' once two of three nodes lost the key (one is not enough); the name as given (an escaped one, a long or binary one shown cut and safe); the option's checks
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/onlost.inc';

$ttl = rl_under_valgrind() ? 3000 : 600;
$rs = [new RlTestRedis(rl_test_server(0)), new RlTestRedis(rl_test_server(1)), new RlTestRedis(rl_test_server(2))];
foreach ($rs as $r) {
    $r->del('lock:ol712', 'lock:ol712b', 'lock:ol712q');
}
$r = $rs[0];

echo "-- callable\n";
$got = [];
$l = new RedisLock(rl_test_server(0), ['auto_extend' => true,
    'on_lost' => function (string $res, string $tok, string $why) use (&$got) { $got[] = [$res, $tok, $why]; }]);
$t = $l->lock('ol712', $ttl);
$r->del('lock:ol712');
$e = ol_quiet(function () use (&$got) { return count($got) > 0; });
echo 'told: ', var_export($e, true), ' ', count($got), ' ', $got[0][0], ' ', var_export($got[0][1] === $t, true), ' ', $got[0][2], "\n";
var_dump($l->unlock('ol712', $t));

echo "-- a callable that throws\n";
$l = new RedisLock(rl_test_server(0), ['auto_extend' => true,
    'on_lost' => function (string $res, string $tok, string $why) { throw new LogicException("stop: $res $why"); }]);
$t = $l->lock('ol712b', $ttl);
$r->del('lock:ol712b');
[$e, $how] = ol_spin(fn() => $l->getValidity('ol712b') === 0);
echo $how, ': ', $e ? get_class($e) . ' ' . $e->getMessage() : '-', "\n";
$l->unlock('ol712b', $t);

echo "-- RedLock\n";
$rl = new RedLock(array_map('rl_test_server', [0, 1, 2]), 10, 1, ['auto_extend' => true, 'on_lost' => 'throw']);
$t = $rl->lock('ol712q', $ttl);
// lock() returns once a quorum granted it: the third node's SET may still be
// on its way, and would land after a delete sent now (the lock then held on
// all three again, and never lost: this test's hang on a loaded machine)
echo 'granted on all three: ', var_export(rl_wait_until(fn() => count(array_filter($rs, fn($r) => $r->get('lock:ol712q') === $t)) === 3, 60.0), true), "\n";
$rs[2]->del('lock:ol712q');       // one of three: a quorum still extends it
$e0 = ol_extended();
$e = ol_quiet(fn() => ol_extended() >= $e0 + 2);
echo 'one node lost it: ', var_export($e, true), ', held ', var_export($rl->isHeld('ol712q'), true), "\n";
$rs[1]->del('lock:ol712q');       // two of three: no quorum can
[$e, $how] = ol_spin(fn() => $rl->getValidity('ol712q') === 0);
echo $how, ': ', $e ? get_class($e) . ' ' . $e->getMessage() : '-', "\n";
$rl->unlock('ol712q', $t);

echo "-- names\n";
$names = [];
$l = new RedisLock(rl_test_server(0), ['auto_extend' => true,
    'on_lost' => function (string $res) use (&$names) { $names[] = $res; }]);
$escaped = "x\0waits";       // reads as one of the library's own keys: it has a key of its own
$long = str_repeat('n', 150) . "\x01\xff";
foreach ([$escaped, $long] as $name) {
    $tok = $l->lock($name, $ttl);
    foreach ($r->keys('lock:*') as $k) {
        if ($r->get($k) === $tok) {
            $r->del($k);
        }
    }
}
ol_quiet(function () use (&$names) { return count($names) >= 2; });
sort($names);
echo 'callable got the names given: ', var_export($names === [$long, $escaped], true), "\n";
$l = new RedisLock(rl_test_server(0), ['auto_extend' => true, 'on_lost' => 'throw']);
$tok = $l->lock($long, $ttl);
foreach ($r->keys('lock:*') as $k) {
    if ($r->get($k) === $tok) {
        $r->del($k);
    }
}
[$e, $how] = ol_spin(fn() => $l->getValidity($long) === 0);
echo $how, ': ', $e ? $e->getMessage() : '-', "\n";

echo "-- the option\n";
foreach ([1, 'thrw', [1, 2], true] as $bad) {
    try {
        new RedisLock(rl_test_server(0), ['on_lost' => $bad]);
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
$ok = new RedLock([rl_test_server(0)], 10, 1, ['on_lost' => 'strlen']);
echo "a callable's name: accepted\n";
?>
--EXPECT--
-- callable
told: NULL 1 ol712 true lost
bool(false)
-- a callable that throws
interrupted: LogicException stop: ol712b lost
-- RedLock
granted on all three: true
one node lost it: NULL, held true
interrupted: RedisLockLostException lock "ol712q" lost (quorum): a quorum of the nodes no longer holds it
-- names
callable got the names given: true
interrupted: lock "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn..." (152 bytes) lost (lost): the node no longer holds it (the key is gone or another's)
-- the option
TypeError: RedisLock::__construct(): Argument #2 ($options) option "on_lost" must be null, 'throw' or a callable, int given
ValueError: RedisLock::__construct(): Argument #2 ($options) option "on_lost" must be null, 'throw' or a callable
TypeError: RedisLock::__construct(): Argument #2 ($options) option "on_lost" must be null, 'throw' or a callable, array given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "on_lost" must be null, 'throw' or a callable, bool given
a callable's name: accepted
