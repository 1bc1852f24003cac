--TEST--
auto_release at the end of a request: locks left held by global objects and objects in static properties/variables are freed as the script ends; auto_release=false ones stay
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$p = 'rl054-' . bin2hex(random_bytes(6)) . '-';
[$code, $out, $err] = rl_php_child(<<<PHP
    class Holder { public static ?RedisLock \$lock = null; }
    \$server = rl_test_server(0);

    \$global = new RedisLock(\$server);
    \$global->lock('{$p}global', 60000);
    \$global->acquireLock('{$p}global2', 60);
    \$global->lock('{$p}reentrant', 60000);
    \$global->lock('{$p}reentrant', 60000);          // held twice

    Holder::\$lock = new RedisLock(\$server);
    Holder::\$lock->acquireLock('{$p}static', 60);

    function keep(string \$server, string \$res): void
    {
        static \$kept;                                  // lives until the executor shuts down
        \$kept = new RedisLock(\$server);
        \$kept->lock(\$res, 60000);
    }
    keep(\$server, '{$p}function-static');

    \$kept = new RedisLock(\$server, ['auto_release' => false]);
    \$kept->lock('{$p}kept', 60000);

    \$r = new RlTestRedis(\$server);
    echo "held: ", count(\$r->keys('lock:{$p}*')), "\\n";
    PHP);

echo "exit code: $code\n";
echo $out;
echo "stderr: [", trim($err), "]\n";
$r = new RlTestRedis(rl_test_server(0));
var_dump($r->keys("lock:$p*"));
$ttl = $r->pttl("lock:{$p}kept");
var_dump($ttl > 30000 && $ttl <= 60000);
$r->del("lock:{$p}kept");
?>
--EXPECTF--
exit code: 0
held: 6
stderr: []
array(1) {
  [0]=>
  string(%d) "lock:rl054-%s-kept"
}
bool(true)
