--TEST--
Deadlocks between resources whose names exceed 64 KiB are detected as any: the deadlock script's reply names a long resource by its edge, the waiter reads it in parts (each reply within a lock reply's bounds) to check each lock on the cycle is held; the wait that closes the cycle gets RedisLockDeadlockException at once, naming them cut; RedisLock and RedLock
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$a = 'a829-' . str_repeat('x', 70000);
$b = 'b829-' . str_repeat('y', 70000);

/* A child that holds $holds and then (once both are in, and $edges waits
 * recorded) waits 5 s for $wants: told at once, or had it (or not) when
 * its wait ended. */
function party(array $servers, string $name, string $holds, string $wants, int $edges): RlTestChild
{
    return rl_php_child_start('
        $servers = ' . var_export($servers, true) . ';
        $l = count($servers) === 1 ? new RedisLock($servers[0]) : new RedLock($servers, 10, 1);
        $r = new RlTestRedis($servers[0]);
        $held = $l->lock(' . var_export($holds, true) . ', 30000);
        $r->cmd("INCR", "in829");
        rl_wait_until(fn() => (int)$r->get("in829") >= 2, 30.0);
        rl_wait_until(fn() => $r->cmd("HLEN", "lock:\0waits") >= ' . $edges . ', 30.0);
        $before = RedisLock::stats();
        try {
            $t = $l->lock(' . var_export($wants, true) . ', 30000, 5.0);
            echo ' . var_export($name, true) . ', " had ", substr(' . var_export($wants, true) . ', 0, 4), ": ", $t !== null ? "yes" : "no", "\n";
            $t !== null && $l->unlock(' . var_export($wants, true) . ', $t);
        } catch (RedisLockDeadlockException $e) {
            $after = RedisLock::stats();
            $ended = $after["waits_woken"] - $before["waits_woken"] + $after["waits_rechecked"] - $before["waits_rechecked"];
            echo ' . var_export($name, true) . ', " ", get_class($e), " (code ", $e->getCode(), ") ",
                $ended === 0 ? "at once" : "after $ended waits", ": ", preg_replace("/([xy])\\\\1{20,}/", "\$1~", $e->getMessage()), "\n";
        }
        $l->unlock(' . var_export($holds, true) . ', $held);
    ');
}

foreach (['RedisLock' => [rl_test_server(0)], 'RedLock' => [rl_test_server(0), rl_test_server(1), rl_test_server(2)]] as $kind => $servers) {
    echo "-- $kind\n";
    foreach ($servers as $s) {
        (new RlTestRedis($s))->del('in829', "lock:$a", "lock:$b", "lock:\0waits");
    }
    $p1 = party($servers, 'p1', $a, $b, 0);
    $p2 = party($servers, 'p2', $b, $a, 1);
    foreach ([$p1, $p2] as $c) {
        [, $out, $err] = $c->wait(60);
        echo $out, $err;
    }
}
(new RlTestRedis(rl_test_server(0)))->del('in829');
?>
--EXPECT--
-- RedisLock
p1 had b829: yes
p2 RedisLockDeadlockException (code 19) at once: waiting for "a829-x~..." (70005 bytes) would deadlock: it is held by a process that waits for "b829-y~..." (70005 bytes), held by this process
-- RedLock
p1 had b829: yes
p2 RedisLockDeadlockException (code 19) at once: waiting for "a829-x~..." (70005 bytes) would deadlock: it is held by a process that waits for "b829-y~..." (70005 bytes), held by this process
