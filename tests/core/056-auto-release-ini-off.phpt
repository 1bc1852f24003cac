--TEST--
INI redislock.auto_release=0: destruction and request end leave locks to their TTL; option 'auto_release' => true still releases
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--INI--
redislock.auto_release=0
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

var_dump(ini_get('redislock.auto_release'));
$p = 'rl056-' . bin2hex(random_bytes(6)) . '-';
$server = rl_test_server(0);
$r = new RlTestRedis($server);

echo "-- destruction\n";
$l = new RedisLock($server);
$ta = $l->lock("{$p}a", 60000);
var_dump($l->acquireLock("{$p}b", 60));
unset($l);
var_dump($r->get("lock:{$p}a") === $ta, $r->exists("lock:{$p}b"));
$ttl = $r->pttl("lock:{$p}a");
var_dump($ttl > 30000 && $ttl <= 60000);

echo "-- option auto_release => true overrides the INI\n";
$l = new RedisLock($server, ['auto_release' => true]);
$l->lock("{$p}c", 60000);
var_dump($r->exists("lock:{$p}c"));
unset($l);
var_dump($r->exists("lock:{$p}c"));

echo "-- request end in a child with the INI off\n";
[$code, $out, $err] = rl_php_child(<<<PHP
    \$l = new RedisLock(rl_test_server(0));
    echo \$l->lock('{$p}d', 60000), "\\n";
    \$on = new RedisLock(rl_test_server(0), ['auto_release' => true]);
    \$on->lock('{$p}e', 60000);
    PHP, ['redislock.auto_release' => '0']);
echo "exit code: $code, stderr: [", trim($err), "]\n";
var_dump($r->get("lock:{$p}d") === trim($out));
$ttl = $r->pttl("lock:{$p}d");
var_dump($ttl > 30000 && $ttl <= 60000);
var_dump($r->exists("lock:{$p}e"));

echo "-- ini_set at run time\n";
ini_set('redislock.auto_release', '1');
$l = new RedisLock($server);
$l->lock("{$p}f", 60000);
unset($l);
var_dump($r->exists("lock:{$p}f"));

$r->del("lock:{$p}a", "lock:{$p}b", "lock:{$p}d");
var_dump($r->keys("lock:$p*"));
?>
--EXPECT--
string(1) "0"
-- destruction
bool(true)
bool(true)
int(1)
bool(true)
-- option auto_release => true overrides the INI
int(1)
int(0)
-- request end in a child with the INI off
exit code: 0, stderr: []
bool(true)
bool(true)
int(0)
-- ini_set at run time
int(0)
array(0) {
}
