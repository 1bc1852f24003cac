--TEST--
on_lost 'throw' with auto_extend: the key deleted by another client, the watchdog's next extension finds it gone and the holder's busy PHP code gets RedisLockLostException (code 20, naming the resource, why 'lost') at its next opcode, once; unlock() is then false; with on_lost null (the default) the same loss throws nothing
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/onlost.inc';

$ttl = rl_under_valgrind() ? 3000 : 600;
$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:ol710', 'lock:ol710-witness', 'lock:ol710-default');

$l = new RedisLock(rl_test_server(0), ['auto_extend' => true, 'on_lost' => 'throw']);
$t = $l->lock('ol710', $ttl);
$w = $l->lock('ol710-witness', $ttl);   // kept: the watchdog's extensions of it show it went on
$r->del('lock:ol710');                   // another client
[$e, $how] = ol_spin(fn() => $l->getValidity('ol710') === 0);
echo $how, "\n";
if ($e) {
    echo get_class($e), ' ', $e->getCode(), ' ', var_export($e instanceof RedisLockException, true), "\n";
    echo $e->getMessage(), "\n";
}
// once: the watchdog goes on (two more extensions of the witness), nothing more comes
$e0 = ol_extended();
$again = ol_quiet(fn() => ol_extended() >= $e0 + 2);
echo 'after: ', $again === null ? 'nothing' : (is_string($again) ? $again : get_class($again)), "\n";
var_dump($l->isHeld('ol710'), $l->unlock('ol710', $t), $l->isHeld('ol710-witness'), $l->unlock('ol710-witness', $w));

echo "-- on_lost null (the default)\n";
$d = new RedisLock(rl_test_server(0), ['auto_extend' => true, 'on_lost' => null]);
$t = $d->lock('ol710-default', $ttl);
$r->del('lock:ol710-default');
$seen = 0;
$e = ol_quiet(function () use ($d, &$seen) { return $d->getValidity('ol710-default') === 0 && ++$seen > 1000; });
echo 'lost, thrown: ', var_export($e, true), ', held ', var_export($d->isHeld('ol710-default'), true), "\n";
var_dump($d->unlock('ol710-default', $t));
?>
--EXPECT--
interrupted
RedisLockLostException 20 true
lock "ol710" lost (lost): the node no longer holds it (the key is gone or another's)
after: nothing
bool(false)
bool(false)
bool(true)
bool(true)
-- on_lost null (the default)
lost, thrown: NULL, held false
bool(false)
