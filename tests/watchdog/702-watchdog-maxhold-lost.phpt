--TEST--
auto_extend: max_hold stops the extensions (the lock then expires by its TTL); a node restarted empty during the hold makes the lock lost: isHeld() false, getValidity() 0, unlock() false, a "lost" logger event, stats; RedLock: lost with a majority restarted, kept with a minority
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

// TTLs the watchdog thread extends in time on a loaded machine (it extends
// every third of the TTL); the checks are counts of extensions, states and
// bounded waits, not how soon
$slow = rl_under_valgrind() ? 1.5 : 1;
$ttl = (int)(2000 * $slow);
$s = new RlTestServer();
$r = $s->client();
$extended = fn() => RedisLock::stats()['auto_extended'];
$lostEvent = fn(array $events) => count(array_filter($events, fn($e) => str_starts_with($e, 'warning ') && str_contains($e, ': lost '))) > 0;
// when the key expires, in the server's clock (ms; its TIME and PTTL at one moment)
$expiry = function (RlTestRedis $r, string $key): int {
    $r->cmd('MULTI');
    $r->cmd('TIME');
    $r->cmd('PTTL', $key);
    [[$sec, $usec], $pttl] = $r->cmd('EXEC');
    return $pttl < 0 ? $pttl : (int)$sec * 1000 + intdiv((int)$usec, 1000) + $pttl;
};

echo "-- max_hold\n";
$events = [];
$maxHold = 1.5 * $ttl / 1000;   // s: past the TTL, so only the watchdog keeps it that long
$l = new RedisLock($s->addr(), ['auto_extend' => true, 'max_hold' => $maxHold,
    'logger' => function ($level, $msg, $ctx) use (&$events) { $events[] = "$level $msg"; }]);
$e0 = $extended();
$t0 = microtime(true);
$t = $l->lock('w702', $ttl);
// three extensions, a third of the TTL apart at least: the last one came
// past the lock's first TTL
$seen = rl_wait_until(fn() => $extended() - $e0 >= 3, 60.0);
echo "extended past its TTL: ", var_export($seen && $r->exists('lock:w702') === 1 && $l->isHeld('w702'), true), "\n";
// max_hold ends the extensions: the key expires (a bounded wait: an
// extended key never would), not before max_hold (the extensions went on
// until then), and after at most max_hold / (TTL / 3) extensions
$gone = rl_wait_until(fn() => $r->exists('lock:w702') === 0, 60.0);
$goneAfter = microtime(true) - $t0;
$n = $extended() - $e0;
echo "expired after max_hold: ", var_export($gone && $goneAfter >= $maxHold, true),
    ", extensions ", $n >= 3 && $n <= (int)floor($maxHold * 1000 / ($ttl / 3)) ? 'in range' : $n,
    ", isHeld: ", var_export($l->isHeld('w702'), true), "\n";
var_dump($l->unlock('w702', $t));
echo "capped, not lost: ", var_export(!$lostEvent($events) && RedisLock::stats()['lost'] === 0, true), "\n";

echo "-- a node restarted during the hold\n";
$events = [];
$l = new RedisLock($s->addr(), ['auto_extend' => true, 'timeout' => 0.3,
    'logger' => function ($level, $msg, $ctx) use (&$events) { $events[] = "$level $msg"; }]);
$e0 = $extended();
$t = $l->lock('w702b', $ttl);
$kept = rl_wait_until(fn() => $extended() > $e0, 60.0);   // the watchdog holds it
$s->restart();
// the next extension finds the key gone (or no node until the validity
// ends): lost, told when the request next looks at the lock
rl_wait_until(function () use ($l, &$events, $lostEvent) { $l->getValidity('w702b'); return $lostEvent($events); }, 60.0);
echo "extended before the restart: ", var_export($kept, true), "\n";
var_dump($l->isHeld('w702b'), $l->getValidity('w702b'), $l->unlock('w702b', $t));
echo implode("\n", $events), "\n";
$stats = RedisLock::stats();
echo "stats: lost ", $stats['lost'], ", extended ", $stats['auto_extended'] > 0 ? 'some' : 'none', "\n";

echo "-- a node that does not answer for a while: tried again while the lock is valid\n";
$ttlD = (int)(3000 * $slow);
$l = new RedisLock($s->addr(), ['auto_extend' => true, 'timeout' => 0.2]);
$r = $s->client();                             // the restart closed the old one
$e0 = $extended();
$t = $l->lock('w702d', $ttlD);
rl_wait_until(fn() => $extended() > $e0, 60.0);    // just after an extension
// writes paused past the next extension (a third of the TTL away, tried
// with a 0.2 s timeout), ending well before the validity does: that try
// fails and only a try again keeps the lock
$pause = (int)($ttlD / 3 + 400);
$r->cmd('MULTI');
$r->cmd('TIME');
$r->cmd('CLIENT', 'PAUSE', (string)$pause, 'WRITE');
[[$sec, $usec]] = $r->cmd('EXEC');
$pausedAt = (int)$sec * 1000 + intdiv((int)$usec, 1000);
// no extension gets through the pause: the key is renewed by a later try,
// after the pause (an expiry past the pause's end + the TTL; the one before
// the pause ends by $pausedAt + the TTL)
$again = rl_wait_until(fn() => $expiry($r, 'lock:w702d') >= $pausedAt + $ttlD + intdiv($pause, 2) || !$l->isHeld('w702d'), 60.0);
echo "still held: ", var_export($again && $l->isHeld('w702d'), true), ", lost ", RedisLock::stats()['lost'], "\n";
echo "-- extend() sets the TTL the watchdog goes on with\n";
$longer = 4 * $ttlD;
var_dump($l->extend('w702d', $t, $longer));
// the watchdog's next extension (a third of the longer TTL away) renews it
// to the longer TTL: the key's expiry moves on (one with the old TTL would
// move it back)
$e2 = $extended();
$extendedTo = $expiry($r, 'lock:w702d');
$next = rl_wait_until(fn() => $extended() > $e2, 60.0);
echo "kept the longer TTL: ", var_export($next && $expiry($r, 'lock:w702d') > $extendedTo && $l->getValidity('w702d') > $ttlD, true), "\n";
var_dump($l->unlock('w702d', $t));

echo "-- RedLock on 3 nodes\n";
$nodes = [new RlTestServer(), new RlTestServer(), new RlTestServer()];
$rl = new RedLock(array_map(fn($n) => $n->addr(), $nodes), 10, 1, ['auto_extend' => true, 'timeout' => 0.3]);
$t = $rl->lock('w702c', $ttl);
$nodes[0]->restart();
// three extensions after one node came back empty (a quorum of two extends
// it): the last one past the lock's first TTL
$e0 = $extended();
$kept = rl_wait_until(fn() => $extended() - $e0 >= 3, 60.0);
echo "one of 3 restarted: held ", var_export($kept && $rl->isHeld('w702c'), true), ", validity ", $rl->getValidity('w702c') > 0 ? 'left' : 'none', "\n";
$nodes[1]->restart();
$nodes[2]->restart();
$lost0 = RedisLock::stats()['lost'];
rl_wait_until(fn() => !$rl->isHeld('w702c') && RedisLock::stats()['lost'] > $lost0, 60.0);
echo "all restarted: held ", var_export($rl->isHeld('w702c'), true), ", validity ", $rl->getValidity('w702c'), ", unlock ", var_export($rl->unlock('w702c', $t), true), ", lost ", RedisLock::stats()['lost'] - $lost0, "\n";
?>
--EXPECT--
-- max_hold
extended past its TTL: true
expired after max_hold: true, extensions in range, isHeld: false
bool(false)
capped, not lost: true
-- a node restarted during the hold
extended before the restart: true
bool(false)
int(0)
bool(false)
info redislock: acquired w702b
warning redislock: lost w702b
stats: lost 1, extended some
-- a node that does not answer for a while: tried again while the lock is valid
still held: true, lost 1
-- extend() sets the TTL the watchdog goes on with
bool(true)
kept the longer TTL: true
bool(true)
-- RedLock on 3 nodes
one of 3 restarted: held true, validity left
all restarted: held false, validity 0, unlock false, lost 1
