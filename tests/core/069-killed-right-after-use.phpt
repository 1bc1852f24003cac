--TEST--
A connection killed right after a reply (before the next command, inside the no-look window) is replaced mid-call: one acquire stays one, an owned lock is not lost
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer();
$c = $srv->client();
$lock = new RedisLock($srv->addr());
$reconnects = fn() => array_sum(array_map(fn($r) => $r['reconnects'],
    array_filter(RedisLock::stats()['connections'], fn($r) => $r['endpoint'] === $srv->addr())));

$ok = 0;
$rounds = rl_under_valgrind() ? 5 : 20;
for ($i = 0; $i < $rounds; $i++) {
    $t = $lock->lock("k069-$i", 10000);
    $c->clientKillAllExceptMe();               // the server closes our socket at once
    $t2 = $lock->lock("k069-$i-b", 10000);     // sent on the dead socket or a new one: either way one lock
    $c->clientKillAllExceptMe();
    $released = $lock->unlock("k069-$i", $t);  // our lock from before the kill is still ours
    $ok += is_string($t) && is_string($t2) && $c->get("lock:k069-$i-b") === $t2 && $released
        && $c->exists("lock:k069-$i") === 0;
    $lock->unlock("k069-$i-b", $t2);
}
echo "rounds right: ", $ok === $rounds ? "all" : "$ok of $rounds", "\n";
echo "reconnected each time: ", $reconnects() >= 2 * $rounds ? 'yes' : 'no (' . $reconnects() . ')', "\n";
echo "keys left: ", count($c->keys('lock:*')), "\n";
?>
--EXPECT--
rounds right: all
reconnected each time: yes
keys left: 0
