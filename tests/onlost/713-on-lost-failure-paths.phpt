--TEST--
on_lost failure paths: an exception already under way (a finally block) becomes the lost one's getPrevious(); two locks lost at once are two exceptions, chained; a loss known inside the extension's own logger waits until the logger returns, and a lock released meanwhile (unlock() from the logger) is never told; a loss inside a synchronized() callback, a once() rebuild and after lockMany() reaches the code there, the lock then released
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/onlost.inc';

$ttl = rl_under_valgrind() ? 6000 : 600;   // valgrind runs one thread at a time: the watchdog's turns come late
$r = new RlTestRedis(rl_test_server(0));
foreach (['a', 'b', 'c', 'd', 'e', 'f', 's', 'o', 'm1', 'm2'] as $k) {
    $r->del("lock:ol713$k");
}
$l = new RedisLock(rl_test_server(0), ['auto_extend' => true, 'on_lost' => 'throw']);
$chain = function (Throwable $e): string {
    $s = [];
    for (; $e; $e = $e->getPrevious()) {
        $s[] = get_class($e) . ($e instanceof RedisLockLostException ? ' ' . explode('"', $e->getMessage())[1] : '');
    }
    return implode(' <- ', $s);
};

echo "-- an exception under way\n";
$t = $l->lock('ol713a', $ttl);
try {
    try {
        throw new DomainException('first');
    } finally {
        $r->del('lock:ol713a');
        echo ol_busy(fn() => $l->getValidity('ol713a') === 0), "\n";
    }
} catch (Throwable $e) {
    echo $chain($e), "\n";
}

echo "-- two at once\n";
// both known lost inside the logger (of the lock() of ol713f), where the
// interrupt waits: the one after it tells both
$two = new RedisLock(rl_test_server(0), ['auto_extend' => true, 'on_lost' => 'throw',
    'logger' => function ($level, $msg, $ctx) use (&$two, $r) {
        if ($ctx['event'] === 'acquired' && $ctx['resource'] === 'ol713f') {
            $r->del('lock:ol713b', 'lock:ol713c');
            for ($i = 0; $i < 1000000000 && ($two->getValidity('ol713b') > 0 || $two->getValidity('ol713c') > 0); $i++) {
            }
        }
    }]);
$tb = $two->lock('ol713b', $ttl);
$tc = $two->lock('ol713c', $ttl);
$names = [];
try {
    // its token kept: the exception comes at the interrupt right after
    // lock() returns, at the assignment, which never runs: the token
    // returned is freed there (valgrind reported it lost before)
    $tf = $two->lock('ol713f', $ttl);
    echo ol_busy(fn() => false, 1000000), "\n";
} catch (RedisLockLostException $e) {
    for ($x = $e; $x; $x = $x->getPrevious()) {
        $names[] = explode('"', $x->getMessage())[1];
    }
}
sort($names);
echo implode(',', $names), "\n";
$two = null;   // the logger's reference to its own object: a cycle no shutdown frees

echo "-- known inside the logger, released there\n";
$events = [];
$lg = null;
$lg = new RedisLock(rl_test_server(0), ['auto_extend' => true, 'on_lost' => 'throw',
    'logger' => function ($level, $msg, $ctx) use (&$events, &$lg, &$td, $r) {
        $events[] = $ctx['event'] . ' ' . $ctx['resource'];
        if ($ctx['event'] === 'acquired' && $ctx['resource'] === 'ol713e') {
            // busy here until the watchdog knows ol713d is lost (its
            // interrupt is held back), then released from here
            $r->del('lock:ol713d');
            for ($i = 0; $i < 1000000000 && $lg->getValidity('ol713d') > 0; $i++) {
            }
            $events[] = 'unlock in the logger: ' . var_export($lg->unlock('ol713d', $td), true);
        }
    }]);
$td = $lg->lock('ol713d', $ttl);
try {
    $te = $lg->lock('ol713e', $ttl);
    $e0 = ol_extended();
    $after = ol_quiet(fn() => ol_extended() >= $e0 + 2);
    echo 'after: ', var_export($after, true), "\n";
} catch (Throwable $e) {
    echo 'thrown: ', $chain($e), "\n";
}
echo implode("\n", $events), "\n";
$lg->unlock('ol713e', $te);
$lg = null;

echo "-- synchronized()\n";
$ran = 0;
try {
    $l->synchronized('ol713s', function () use ($l, $r, &$ran) {
        $ran++;
        $r->del('lock:ol713s');
        echo ol_busy(fn() => $l->getValidity('ol713s') === 0), "\n";
        return 'done';
    }, $ttl);
} catch (Throwable $e) {
    echo $chain($e), "\n";
}
echo 'ran ', $ran, ', held after: ', var_export($l->isHeld('ol713s'), true), "\n";

echo "-- once()\n";
try {
    $res = $l->once('ol713o', function () use ($l, $r) {
        $r->del('lock:ol713o');
        echo ol_busy(fn() => $l->getValidity('ol713o') === 0), "\n";
        return 'built';
    }, $ttl);
    echo 'once returned ', $res, "\n";
} catch (Throwable $e) {
    echo $chain($e), "\n";
}
echo 'held after: ', var_export($l->isHeld('ol713o'), true), "\n";

echo "-- lockMany()\n";
$tm = $l->lockMany(['ol713m1', 'ol713m2'], $ttl);
$r->del('lock:ol713m2');
[$e, $how] = ol_spin(fn() => $l->getValidity('ol713m2') === 0);
echo $how, ': ', $e ? $chain($e) : '-', "\n";
echo 'the other still held: ', var_export($l->isHeld('ol713m1'), true), "\n";
var_dump($l->unlockMany(['ol713m1', 'ol713m2'], $tm));
echo 'after: ', var_export(ol_quiet(fn() => true), true), "\n";
?>
--EXPECT--
-- an exception under way
RedisLockLostException ol713a <- DomainException
-- two at once
ol713b,ol713c
-- known inside the logger, released there
after: NULL
acquired ol713d
acquired ol713e
lost ol713d
unlock in the logger: false
-- synchronized()
RedisLockLostException ol713s
ran 1, held after: false
-- once()
RedisLockLostException ol713o
held after: false
-- lockMany()
interrupted: RedisLockLostException ol713m2
the other still held: true
bool(false)
after: NULL
