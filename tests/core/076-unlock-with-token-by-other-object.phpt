--TEST--
Token API: unlock() by another object with the owner's token deletes the lock (the token is the proof of ownership); a wrong or stale token deletes nothing
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

/*
 * Documented behaviour: lock() returns a token and unlock($resource, $token)
 * is a compare-and-delete on that token in Redis. Whoever presents the token
 * releases the lock, whichever object (or process) it is; releaseLock(), which
 * takes no token, only releases what the object itself holds.
 */
$p = 'rl076-' . bin2hex(random_bytes(6)) . '-';
$server = rl_test_server(0);
$r = new RlTestRedis($server);
$a = new RedisLock($server);
$b = new RedisLock($server);

echo "-- a wrong token: nothing deleted\n";
$ta = $a->lock("{$p}x", 60000);
var_dump($b->unlock("{$p}x", 'not-the-token'));
var_dump($b->unlock("{$p}x", strrev($ta)));
var_dump($r->get("lock:{$p}x") === $ta);

echo "-- the right token, from another object: deleted\n";
var_dump($b->unlock("{$p}x", $ta));
var_dump($r->exists("lock:{$p}x"));
var_dump($b->unlock("{$p}x", $ta));                 // already gone

echo "-- the token handed to another process works too\n";
$ta = $a->lock("{$p}y", 60000);
[$code, $out, $err] = rl_php_child(<<<PHP
    var_dump((new RedisLock(rl_test_server(0)))->unlock('{$p}y', '$ta'));
    PHP);
echo $out, $err;
var_dump($r->exists("lock:{$p}y"));

echo "-- the first owner's stale token cannot delete the next owner's lock\n";
$tc = $b->lock("{$p}x", 60000);
var_dump(is_string($tc) && $tc !== $ta);
var_dump($a->unlock("{$p}x", $ta));
var_dump($a->releaseLock("{$p}x"));
var_dump($r->get("lock:{$p}x") === $tc);
unset($a);                                          // its auto-release has nothing of its own left
var_dump($r->get("lock:{$p}x") === $tc);
var_dump($b->unlock("{$p}x", $tc), $r->exists("lock:{$p}x"));

echo "-- a re-entrant hold released by a foreign unlock: the holder's count does not keep the key\n";
$c = new RedisLock($server);
$t = $c->lock("{$p}z", 60000);
$c->lock("{$p}z", 60000);
var_dump($b->unlock("{$p}z", $t), $r->exists("lock:{$p}z"));
$d = new RedisLock($server);
$td = $d->lock("{$p}z", 60000);
$c->unlock("{$p}z", $t);                            // counts its hold down (2 -> 1)
var_dump($c->unlock("{$p}z", $t));                  // the last one: the key is not its any more
var_dump($r->get("lock:{$p}z") === $td);
unset($c);
var_dump($r->get("lock:{$p}z") === $td);
var_dump($d->unlock("{$p}z", $td));
var_dump($r->keys("lock:$p*"));
?>
--EXPECT--
-- a wrong token: nothing deleted
bool(false)
bool(false)
bool(true)
-- the right token, from another object: deleted
bool(true)
int(0)
bool(false)
-- the token handed to another process works too
bool(true)
int(0)
-- the first owner's stale token cannot delete the next owner's lock
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
int(0)
-- a re-entrant hold released by a foreign unlock: the holder's count does not keep the key
bool(true)
int(0)
bool(false)
bool(true)
bool(true)
bool(true)
array(0) {
}
