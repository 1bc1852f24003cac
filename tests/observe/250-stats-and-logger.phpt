--TEST--
Observability: RedisLock::stats() counters and pool rows; logger events (callable and PSR-3 object) without secrets; bad logger option
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer(['--requirepass', 'pw-250-secret']);
class Psr3Logger { public array $lines = []; function log($level, $message, array $context = []): void { $this->lines[] = [$level, $message, $context]; } }
$psr = new Psr3Logger();
$events = [];
$cb = function (string $level, string $message, array $context) use (&$events) { $events[] = "$level|$message|" . implode(',', array_keys($context)); };

$before = RedisLock::stats();
$a = new RedisLock($srv->addr(), ['password' => 'pw-250-secret', 'logger' => $psr]);
$b = new RedisLock($srv->addr(), ['password' => 'pw-250-secret', 'logger' => $cb]);
$t = $a->lock('s250', 10000);                 // acquired
var_dump($b->lock('s250', 1000));             // contended
$a->unlock('s250', $t);                       // released
$t = $a->lock('s250-short', 20);
usleep(60000);
var_dump($a->unlock('s250-short', $t));       // expired
$deadAddr = '127.0.0.1:' . rl_free_port();
$dead = new RedisLock($deadAddr, ['logger' => $psr]);
try { $dead->lock('s250', 100); } catch (RedisLockConnectionException $e) { echo "failed as expected\n"; }
$c = new RedisLock($srv->addr(), ['password' => 'pw-250-secret']);
$c->lock('s250-auto', 10000);
unset($c);                                    // auto-released

$after = RedisLock::stats();
foreach (['acquired' => 3, 'contended' => 1, 'failed' => 1, 'released' => 2, 'auto_released' => 1, 'expired' => 1] as $k => $want) {
    echo "$k: +", $after[$k] - $before[$k], $after[$k] - $before[$k] === $want ? '' : " (want +$want)", "\n";
}
$rows = array_values(array_filter($after['connections'], fn($r) => $r['endpoint'] === $srv->addr()));
echo "pool rows for the server: ", count($rows), ", role ", $rows[0]['role'], ", open ", var_export($rows[0]['open'], true), ", connects ", $rows[0]['connects'], "\n";

echo "PSR-3 events:\n";
foreach ($psr->lines as [$level, $message, $ctx]) {
    $nodes = implode(',', array_map(fn($n, $v) => "$n=" . (str_contains($v, 'refused') ? 'refused' : $v), array_keys($ctx['nodes']), $ctx['nodes']));
    $nodes = str_replace([$srv->addr(), $deadAddr], ['SRV', 'DEAD'], $nodes); // no regex: PCRE's JIT upsets valgrind
    printf("  %s %s event=%s token=%s ms=%s nodes=%s\n", $level, str_replace('s250', 'R', $message), $ctx['event'],
           isset($ctx['token']) ? ((strlen($ctx['token']) === 11 && ctype_xdigit(substr($ctx['token'], 0, 8)) && str_ends_with($ctx['token'], '...')) ? '8 chars' : $ctx['token']) : '-',
           is_float($ctx['ms']) ? 'float' : gettype($ctx['ms']), $nodes);
}
echo "callable events:\n  ", implode("\n  ", $events), "\n";
$all = serialize([$psr->lines, $events]);
echo "secrets in events: ", (str_contains($all, 'pw-250-secret') || str_contains($all, $t)) ? 'yes' : 'no', "\n";

// a logger that refers back to the lock object (a cycle) is collected
$holder = new RedisLock($srv->addr(), ['password' => 'pw-250-secret', 'logger' => function () use (&$holder) {}]);
$wh = WeakReference::create($holder);
unset($holder);
gc_collect_cycles();
echo "cycle collected: ", $wh->get() === null ? 'yes' : 'no', "\n";

foreach ([42, 'no_such_function', new stdClass] as $bad) {
    try { new RedisLock($srv->addr(), ['logger' => $bad]); } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
?>
--EXPECT--
NULL
bool(false)
failed as expected
acquired: +3
contended: +1
failed: +1
released: +2
auto_released: +1
expired: +1
pool rows for the server: 1, role command, open true, connects 1
PSR-3 events:
  info redislock: acquired R event=acquired token=8 chars ms=float nodes=SRV=yes
  info redislock: released R event=released token=8 chars ms=float nodes=SRV=yes
  info redislock: acquired R-short event=acquired token=8 chars ms=float nodes=SRV=yes
  warning redislock: expired R-short event=expired token=8 chars ms=float nodes=SRV=no
  error redislock: failed R event=failed token=- ms=float nodes=DEAD=refused
callable events:
  debug|redislock: contended s250|ms,nodes,event,resource,key
secrets in events: no
cycle collected: yes
TypeError: RedisLock::__construct(): Argument #2 ($options) option "logger" must be a callable or an object with a log() method, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "logger" must be a callable or an object with a log() method, string given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "logger" must be a callable or an object with a log() method, stdClass given
