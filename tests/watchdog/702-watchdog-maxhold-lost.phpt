--TEST--
auto_extend: max_hold stops the extensions (the lock then expires by its TTL); a node restarted empty during the hold makes the lock lost: isHeld() false, getValidity() 0, unlock() false, a "lost" logger event, stats; RedLock: lost with a majority restarted, kept with a minority
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$slow = rl_under_valgrind() ? 3 : 1;
$s = new RlTestServer();
$r = $s->client();

echo "-- max_hold\n";
$l = new RedisLock($s->addr(), ['auto_extend' => true, 'max_hold' => 1.0 * $slow]);
$t = $l->lock('w702', 400 * $slow);
usleep(800000 * $slow);
echo "extended past its TTL: ", var_export($r->exists('lock:w702') === 1 && $l->isHeld('w702'), true), "\n";
rl_wait_until(fn() => $r->exists('lock:w702') === 0, 5.0 * $slow);
$freeAt = microtime(true);
echo "expired after max_hold: ", var_export($r->exists('lock:w702') === 0, true), ", isHeld: ", var_export($l->isHeld('w702'), true), "\n";
var_dump($l->unlock('w702', $t));

echo "-- a node restarted during the hold\n";
$events = [];
$l = new RedisLock($s->addr(), ['auto_extend' => true, 'timeout' => 0.3,
    'logger' => function ($level, $msg, $ctx) use (&$events) { $events[] = "$level $msg"; }]);
$t = $l->lock('w702b', 600 * $slow);
$s->restart();
usleep(700000 * $slow);   // the next extension finds the key gone
var_dump($l->isHeld('w702b'), $l->getValidity('w702b'), $l->unlock('w702b', $t));
echo implode("\n", $events), "\n";
$stats = RedisLock::stats();
echo "stats: lost ", $stats['lost'], ", extended ", $stats['auto_extended'] > 0 ? 'some' : 'none', "\n";

echo "-- a node that does not answer for a while: tried again while the lock is valid\n";
$l = new RedisLock($s->addr(), ['auto_extend' => true, 'timeout' => 0.2]);
$t = $l->lock('w702d', 3000 * $slow);
usleep(1100000 * $slow);                        // just after an extension
$s->client()->cmd('CLIENT', 'PAUSE', (string)(600 * $slow), 'WRITE');
usleep(1600000 * $slow);
$r = $s->client();                             // the earlier restart closed the old one
echo "still held: ", var_export($l->isHeld('w702d') && $r->pttl('lock:w702d') > 1500 * $slow, true), "\n";
echo "-- extend() sets the TTL the watchdog goes on with\n";
var_dump($l->extend('w702d', $t, 60000));
usleep(1200000 * $slow);                        // past the next extension of the old TTL
echo "kept the longer TTL: ", var_export($r->pttl('lock:w702d') > 50000 && $l->getValidity('w702d') > 50000, true), "\n";
var_dump($l->unlock('w702d', $t));

echo "-- RedLock on 3 nodes\n";
$nodes = [new RlTestServer(), new RlTestServer(), new RlTestServer()];
$rl = new RedLock(array_map(fn($n) => $n->addr(), $nodes), 10, 1, ['auto_extend' => true, 'timeout' => 0.3]);
$t = $rl->lock('w702c', 600 * $slow);
$nodes[0]->restart();
usleep(1500000 * $slow);
echo "one of 3 restarted: held ", var_export($rl->isHeld('w702c'), true), ", validity ", $rl->getValidity('w702c') > 0 ? 'left' : 'none', "\n";
$nodes[1]->restart();
$nodes[2]->restart();
usleep(700000 * $slow);
echo "all restarted: held ", var_export($rl->isHeld('w702c'), true), ", validity ", $rl->getValidity('w702c'), ", unlock ", var_export($rl->unlock('w702c', $t), true), "\n";
?>
--EXPECT--
-- max_hold
extended past its TTL: true
expired after max_hold: true, isHeld: false
bool(false)
-- a node restarted during the hold
bool(false)
int(0)
bool(false)
info redislock: acquired w702b
warning redislock: lost w702b
stats: lost 1, extended some
-- a node that does not answer for a while: tried again while the lock is valid
still held: true
-- extend() sets the TTL the watchdog goes on with
bool(true)
kept the longer TTL: true
bool(true)
-- RedLock on 3 nodes
one of 3 restarted: held true, validity left
all restarted: held false, validity 0, unlock false
