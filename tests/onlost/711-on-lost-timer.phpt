--TEST--
on_lost without auto_extend: a timer of the lock's validity as the holder counts it (what getValidity() reads): 'throw' gets RedisLockLostException why 'expired' once it runs out, while busy code polls; a callable gets (resource, token, 'expired'); extend() moves the timer on; a lock released in time is never told; re-entrant lock() refreshes it too
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/onlost.inc';

$ttl = rl_under_valgrind() ? 1500 : 300;
$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:ol711', 'lock:ol711b', 'lock:ol711c', 'lock:ol711d');

echo "-- throw\n";
$l = new RedisLock(rl_test_server(0), ['on_lost' => 'throw']);
$t = $l->lock('ol711', $ttl);
$polled = 0;
// the holder's code waits on a condition that never comes (a counter it polls)
[$e, $how] = ol_spin(function () use (&$polled) { $polled++; return false; });
echo $how, ': ', $e ? get_class($e) . ' ' . $e->getMessage() : '-', "\n";
echo 'validity then: ', $l->getValidity('ol711'), ", polled: ", $polled > 0 ? 'yes' : 'no', "\n";
$l->unlock('ol711', $t);   // the key outlives the holder's validity by the drift: may still be there

echo "-- callable\n";
$got = [];
$c = new RedisLock(rl_test_server(0), ['on_lost' => function (string $res, string $tok, string $why) use (&$got) {
    $got[] = [$res, $tok, $why];
}]);
$t = $c->lock('ol711b', $ttl);
$e = ol_quiet(function () use (&$got) { return count($got) > 0; });
echo 'told: ', var_export($e, true), ' ', count($got), ' ', $got[0][0], ' ', var_export($got[0][1] === $t, true), ' ', $got[0][2], "\n";
$c->unlock('ol711b', $t);

echo "-- extend() moves the timer on; a release in time is never told\n";
$got = [];
$long = 3 * $ttl;   // room for a loaded machine between a look and the timer's end
$t = $c->lock('ol711c', $long);
$t2 = $c->lock('ol711d', 4 * $long);
// extended before it runs out, again and again: told only once it is let go
$extends = 0;
$e = ol_quiet(function () use ($c, $t, $long, &$extends, &$got) {
    if (count($got) > 0) {
        return true;
    }
    if ($c->getValidity('ol711c') < $long * 3 / 4 && $extends < 3) {
        $extends += $c->extend('ol711c', $t, $long) ? 1 : 0;
    }
    return false;
});
echo 'extended ', $extends, ' times, then told: ', count($got), ' ', $got[0][0] ?? '-', ' ', $got[0][2] ?? '-', "\n";
$c->unlock('ol711c', $t);
// ol711d is released before its validity ends; a witness taken after it
// with a shorter TTL ends later still than ol711d would have (a timer runs
// in order): told for the witness only
$got = [];
var_dump($c->unlock('ol711d', $t2));
$t3 = $c->lock('ol711d-witness', 4 * $long);
$e = ol_quiet(function () use (&$got) { return count($got) > 0; });
echo 'told: ', implode(',', array_map(fn($g) => $g[0], $got)), ' ', var_export($e, true), "\n";
$c->unlock('ol711d-witness', $t3);

echo "-- re-entrant lock() refreshes the timer\n";
$got = [];
$t = $c->lock('ol711e', $long);
$again = 0;
$e = ol_quiet(function () use ($c, $long, &$again, &$got) {
    if (count($got) > 0) {
        return true;
    }
    if ($c->getValidity('ol711e') < $long * 3 / 4 && $again < 2) {
        $again += $c->lock('ol711e', $long) !== null ? 1 : 0;
    }
    return false;
});
echo 'refreshed ', $again, ' times, then told ', count($got), "\n";
$c->unlock('ol711e', $t);
$c->unlock('ol711e', $t);
$c->unlock('ol711e', $t);
?>
--EXPECT--
-- throw
interrupted: RedisLockLostException lock "ol711" lost (expired): its validity ran out before it was extended or released
validity then: 0, polled: yes
-- callable
told: NULL 1 ol711b true expired
-- extend() moves the timer on; a release in time is never told
extended 3 times, then told: 1 ol711c expired
bool(true)
told: ol711d-witness NULL
-- re-entrant lock() refreshes the timer
refreshed 2 times, then told 1
