--TEST--
lockMany() one by one (with fencing) that misses: the resources taken are released, also when a later wait threw (the exception is the call's, the releases are logged as any); with a caller's token nothing is taken back (its earlier lock stays, and is not released with the object)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:a827', 'lock:b827', 'lock:c827');
$other = new RedisLock(rl_test_server(0));
$held = $other->lock('b827', 30000);

echo "-- a miss by time: the first taken is released\n";
$f = new RedisLock(rl_test_server(0), ['fencing' => true]);
var_dump($f->lockMany(['a827', 'b827', 'c827'], 5000, 0.2));
var_dump($r->exists('lock:a827'), $r->exists('lock:c827'), $f->isHeld('a827'));

echo "-- a later wait throws: its exception, the first released and logged\n";
$events = [];
$logged = new RedisLock(rl_test_server(0), ['fencing' => true, 'logger' => function (string $level, string $message, array $context) use (&$events) {
    $events[] = $context['event'] . ' ' . $context['resource'];
    if ($context['event'] === 'contended') {
        throw new RuntimeException('logger refused ' . $context['resource']);
    }
}]);
try {
    $logged->lockMany(['a827', 'b827'], 5000, 0.5);
    echo "no exception\n";
} catch (RuntimeException $e) {
    echo get_class($e), ': ', $e->getMessage(), ', previous: ', $e->getPrevious() === null ? 'none' : get_class($e->getPrevious()), "\n";
}
var_dump($r->exists('lock:a827'), $logged->isHeld('a827'));
echo implode("\n", $events), "\n";

echo "-- a caller's token: its earlier lock stays\n";
$g = new RedisLock(rl_test_server(0));                 // the token's lock, taken elsewhere (a queued job's)
var_dump($g->lock('a827', 30000, 0.0, 'owner-827'));
var_dump($f->lockMany(['a827', 'b827'], 5000, 0.2, 'owner-827'));
var_dump($r->get('lock:a827'), $f->holds('a827', 'owner-827'));
var_dump($f->isHeld('a827'));                          // not recorded as the missed call's
unset($f);                                             // so not released at its end either
var_dump($r->get('lock:a827'));
$g->unlock('a827', 'owner-827');
$other->unlock('b827', $held);
var_dump($r->exists('lock:a827', 'lock:b827', 'lock:c827'));
?>
--EXPECT--
-- a miss by time: the first taken is released
NULL
int(0)
int(0)
bool(false)
-- a later wait throws: its exception, the first released and logged
RuntimeException: logger refused b827, previous: none
int(0)
bool(false)
acquired a827
contended b827
released a827
-- a caller's token: its earlier lock stays
string(9) "owner-827"
NULL
string(9) "owner-827"
bool(true)
bool(false)
string(9) "owner-827"
int(0)
