--TEST--
Option deadlock_detection false: waits record nothing ("<prefix>\0waits" never written) and a cycle of two waits is not told (the shorter wait ends with null, then the other has its lock); a value that is not a bool is a TypeError naming the option
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../woken.inc';

$srv = new RlTestServer();
$r = $srv->client();

/* A child that holds $holds, then, once both hold, waits $wait s for $wants. */
function party828(string $addr, string $holds, string $wants, float $wait): RlTestChild
{
    return rl_php_child_start('
        $l = new RedisLock(' . var_export($addr, true) . ', ["deadlock_detection" => false]);
        $r = new RlTestRedis(' . var_export($addr, true) . ');
        $held = $l->lock(' . var_export($holds, true) . ', 60000);
        $r->cmd("INCR", "in828");
        rl_wait_until(fn() => (int)$r->get("in828") >= 2, 30.0);
        try {
            $t = $l->lock(' . var_export($wants, true) . ', 60000, ' . $wait . ');
            echo ' . var_export($holds, true) . ', " had ", ' . var_export($wants, true) . ', ": ", $t !== null ? "yes" : "no", "\n";
        } catch (RedisLockException $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
        $l->unlock(' . var_export($holds, true) . ', $held);
    ');
}

$slow = rl_under_valgrind();
$a = party828($srv->addr(), 'a828', 'b828', $slow ? 60.0 : 20.0);
$b = party828($srv->addr(), 'b828', 'a828', $slow ? 6.0 : 2.0);
// both wait blocked on their wake streams: no record was written meanwhile
$both = rl_wait_until(fn() => rl_woken_blocked($r) === 2, $slow ? 60 : 20);
echo "both waiting: ", var_export($both, true), "\n";
$seen = $r->exists("lock:\0waits");
[, $outB] = $b->wait($slow ? 120 : 60);
[, $outA] = $a->wait($slow ? 120 : 60);
echo $outB, $outA;
echo "records written: ", $seen + (int)str_contains($r->cmd('INFO', 'commandstats'), 'cmdstat_hset:'), "\n";

foreach (['yes', 1, null] as $bad) {
    try {
        new RedisLock($srv->addr(), ['deadlock_detection' => $bad]);
        echo "accepted\n";
    } catch (TypeError $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}
?>
--EXPECTF--
both waiting: true
b828 had a828: no
a828 had b828: yes
records written: 0
TypeError: %s option "deadlock_detection" must be of type bool, string given
TypeError: %s option "deadlock_detection" must be of type bool, int given
TypeError: %s option "deadlock_detection" must be of type bool, null given
