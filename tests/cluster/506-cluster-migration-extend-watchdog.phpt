--TEST--
Cluster: while a lock's slot is being migrated and after it moved, extend() and the watchdog (auto_extend) keep the lock where it is (through ASK, then MOVED); a semaphore's permit is released on its one key; a shared lock's release waits the migration out
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';

$c = new RlTestCluster();
function asking(string $addr, string ...$args): mixed
{
    $r = new RlTestRedis($addr);
    $r->cmd('ASKING');
    return $r->cmd(...$args);
}
$l = new RedisLock(['cluster' => $c->seeds()], ['timeout' => 0.5]);
$auto = new RedisLock(['cluster' => $c->seeds()], ['timeout' => 0.5, 'auto_extend' => true]);
$slot = $c->slotOf('lock:{t506}w');
$from = $c->masterFor('lock:{t506}w');
$to = current(array_diff($c->masters(), [$from]));

$w = $auto->lock('{t506}w', 600);                 // extended every 200 ms by the watchdog
$e = $l->lock('{t506}e', 60000);
$p = $l->acquirePermit('{t506}p', 2, 60000);
$s = $l->lockShared('{t506}s', 60000);
echo "taken: ", var_export(is_string($w) && is_string($e) && is_string($p) && is_string($s), true), "\n";

$c->migrateSlot($slot, $from, $to, false);        // keys moved, slot MIGRATING/IMPORTING
usleep(1500000);                                  // well past the 600 ms TTL
echo "watched lock alive on the importing node: ", var_export(asking($to, 'PTTL', 'lock:{t506}w') > 0, true), "\n";
echo "holds (ASK): ", var_export($auto->holds('{t506}w', $w), true), "\n";
var_dump($l->extend('{t506}e', $e, 90000));
echo "extended there: ", var_export(asking($to, 'PTTL', 'lock:{t506}e') > 60000, true), "\n";
var_dump($l->unlock('{t506}p', $p));              // a permit: the semaphore's one key
echo "permit gone: ", var_export(asking($to, 'ZSCORE', 'lock:{t506}p', $p), true), "\n";
try {
    $l->unlock('{t506}s', $s);                    // the mark and its holders: two keys
    echo "no exception\n";
} catch (RedisLockException $ex) {
    echo get_class($ex), ' ', $ex->getCode(), ': ', str_contains($ex->getMessage(), 'still answering TRYAGAIN') ? 'TRYAGAIN' : $ex->getMessage(), "\n";
}

$c->migrateSlot($slot, $from, $to, true);         // done: MOVED from the old master
usleep(1500000);
echo "watched lock alive after the move: ", var_export($c->cmd($to, 'PTTL', 'lock:{t506}w') > 0, true), "\n";
$st = RedisLock::stats();
echo "lost: ", $st['lost'], "\n";
var_dump($auto->unlock('{t506}w', $w), $l->unlock('{t506}e', $e), $l->unlock('{t506}s', $s));
echo "left: ", $c->cmd($to, 'CLUSTER', 'COUNTKEYSINSLOT', $slot), "\n";
?>
--EXPECT--
taken: true
watched lock alive on the importing node: true
holds (ASK): true
bool(true)
extended there: true
bool(true)
permit gone: NULL
RedisLockException 16: TRYAGAIN
watched lock alive after the move: true
lost: 0
bool(true)
bool(true)
bool(true)
left: 0
