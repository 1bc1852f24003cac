--TEST--
lockMany(): every resource or none (a held one leaves the others untaken); each is then a lock of its own (holds, unlock, extend); unlockMany(); a shared lock or a semaphore counts as held, never an error; auto-release; unlockMany() in one script, counted as the locks it released (released, expired); with fencing each numbered as lock() numbers it; a resource the object recorded but another released is no longer refused; bad input names the argument
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$names = ['a820', 'b820', 'c820', 'd820', 'e820'];
$r->del(...array_map(fn($n) => "lock:$n", $names));
$a = new RedisLock(rl_test_server(0));
$b = new RedisLock(rl_test_server(0));
$on = fn(array $ns) => implode(' ', array_map(fn($n) => $r->get("lock:$n") === null ? '-' : 'x', $ns));

echo "-- all or none\n";
$t = $a->lockMany(['a820', 'b820', 'c820'], 30000);
echo "taken: ", is_string($t) && strlen($t) === 32 ? 'a token' : var_export($t, true), "\n";
echo "every key holds it: ", $r->get('lock:a820') === $t && $r->get('lock:b820') === $t && $r->get('lock:c820') === $t ? 'yes' : 'no', "\n";
var_dump($b->lockMany(['d820', 'c820', 'e820'], 30000));            // c820 is held
echo "after a refused one: ", $on(['d820', 'e820']), "\n";           // nothing taken
echo "-- each a lock of its own\n";
var_dump($a->holds('b820', $t), $a->extend('b820', $t, 60000), $r->cmd('PTTL', 'lock:b820') > 30000);
var_dump($a->unlock('a820', $t));
var_dump($a->unlockMany(['a820', 'b820', 'c820'], $t));              // a820 went already: false
echo "after unlockMany: ", $on(['a820', 'b820', 'c820']), "\n";
var_dump($b->unlockMany(['d820'], 'not-ours'));

echo "-- the caller's token\n";
$t = $a->lockMany(['a820', 'b820'], 30000, 0.0, 'owner-820');
var_dump($t, $r->get('lock:b820'));
var_dump($b->lockMany(['a820', 'c820'], 30000, 0.0, 'owner-820'));  // its own token: refreshed, c820 taken
var_dump($b->unlockMany(['a820', 'b820', 'c820'], 'owner-820'));
echo "-- other kinds count as held\n";
$s = $b->lockShared('d820', 30000);
var_dump($a->lockMany(['c820', 'd820'], 30000));
$b->unlock('d820', $s);
$p = $b->acquirePermit('e820', 2, 30000);
var_dump($a->lockMany(['c820', 'e820'], 30000));
$b->unlock('e820', $p);
echo "left: ", $on(['c820', 'd820', 'e820']), "\n";

echo "-- auto-release\n";
$c = new RedisLock(rl_test_server(0));
$c->lockMany(['a820', 'b820'], 30000);
unset($c);
echo "after the object went: ", $on(['a820', 'b820']), "\n";

echo "-- counted as locks\n";
$before = RedisLock::stats();
$t = $a->lockMany(['a820', 'b820', 'c820'], 30000);
$r->del('lock:c820');                                               // as if its TTL ran out
var_dump($a->unlockMany(['a820', 'b820', 'c820'], $t));
$after = RedisLock::stats();
foreach (['acquired', 'released', 'expired'] as $k) {
    echo "$k: +", $after[$k] - $before[$k], "\n";
}

echo "-- with fencing: each numbered as lock() numbers it\n";
$f = new RedisLock(rl_test_server(0), ['fencing' => true]);
$before = $f->fencingToken('a820') ?? 0;
$one = $f->lock('a820', 30000);
$n1 = $f->fencingToken('a820');
$f->unlock('a820', $one);
$t = $f->lockMany(['b820', 'a820'], 30000);
echo "numbered: ", $f->fencingToken('a820') > $n1 && $f->fencingToken('b820') >= 1 ? 'yes' : 'no', "\n";
var_dump($f->unlockMany(['a820', 'b820'], $t));
$h = $b->lock('b820', 30000);
var_dump($f->lockMany(['a820', 'b820'], 30000));                    // b820 held: a820 taken back
echo "a820 left: ", $on(['a820']), "\n";
$b->unlock('b820', $h);

echo "-- bad input\n";
$bad = [
    fn() => $a->lockMany([], 1000),
    fn() => $a->lockMany(array_map(fn($i) => "r$i", range(1, 65)), 1000),
    fn() => $a->lockMany(['x820', 'x820'], 1000),
    fn() => $a->lockMany(['x820', 7], 1000),
    fn() => $a->lockMany(['x820', ''], 1000),
    fn() => $a->lockMany(['x820'], 0),
    fn() => $a->lockMany(['x820'], 1000, -1.0),
    fn() => $a->lockMany(['x820'], 1000, 0.0, ''),
    fn() => $a->unlockMany(['x820'], ''),
    fn() => $a->unlockMany([], 'x'),
    function () use ($a) { $h = $a->lock('x820', 1000); try { $a->lockMany(['y820', 'x820'], 1000); } finally { $a->unlock('x820', $h); } },
];
foreach ($bad as $f) {
    try {
        $f();
        echo "no exception\n";
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}
$r->del(rl_derived_key('lock:a820', 'f'), rl_derived_key('lock:b820', 'f'));   // fence counters live on (by design)
echo "keys left: ", count($r->cmd('KEYS', '*820*')), "\n";
?>
--EXPECT--
-- all or none
taken: a token
every key holds it: yes
NULL
after a refused one: - -
-- each a lock of its own
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
after unlockMany: - - -
bool(false)
-- the caller's token
string(9) "owner-820"
string(9) "owner-820"
string(9) "owner-820"
bool(true)
-- other kinds count as held
NULL
NULL
left: - - -
-- auto-release
after the object went: - -
-- counted as locks
bool(false)
acquired: +3
released: +2
expired: +1
-- with fencing: each numbered as lock() numbers it
numbered: yes
bool(true)
NULL
a820 left: -
-- bad input
ValueError: RedisLock::lockMany(): Argument #1 ($resources) must hold between 1 and 64 resources
ValueError: RedisLock::lockMany(): Argument #1 ($resources) must hold between 1 and 64 resources
ValueError: RedisLock::lockMany(): Argument #1 ($resources) must not name a resource twice ("x820")
TypeError: RedisLock::lockMany(): Argument #1 ($resources) must hold strings only, int given
ValueError: RedisLock::lockMany(): Argument #1 ($resources) must not be empty
ValueError: RedisLock::lockMany(): Argument #2 ($ttl) must be between 1 and 4398046511104
ValueError: RedisLock::lockMany(): Argument #3 ($wait) must be between 0 and 86400 seconds
ValueError: RedisLock::lockMany(): Argument #4 ($token) must be null or between 1 and 256 bytes
ValueError: RedisLock::unlockMany(): Argument #2 ($token) must not be empty
ValueError: RedisLock::unlockMany(): Argument #1 ($resources) must hold between 1 and 64 resources
RedisLockException: "x820" is held by this object already: lockMany() takes resources it does not hold
keys left: 0
