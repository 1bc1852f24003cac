--TEST--
The password never shows when the object is dumped: var_dump, print_r, var_export, debug_zval_dump, casts
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$pw = 'T031-Sup3r-S3cret';
$srv = new RlTestServer(['--requirepass', $pw, '--user', 't031user', 'on', '>T031-User-S3cret', '~*', '&*', '+@all']);

$lock = new RedisLock($srv->addr(), ['password' => $pw, 'prefix' => 't031:']);
$acl = new RedisLock($srv->addr(), ['username' => 't031user', 'password' => 'T031-User-S3cret']);
$red = new RedLock([$srv->addr()], 200, 3, ['password' => $pw]);
// Used, so that whatever state they keep is there.
$t1 = $lock->lock('res', 30000);
$t2 = $acl->lock('res', 30000);
$t3 = $red->lock('res3', 30000);
var_dump(is_string($t1), is_string($t2), is_string($t3));

foreach (['lock' => $lock, 'acl' => $acl, 'red' => $red] as $name => $obj) {
    ob_start();
    var_dump($obj);
    print_r($obj);
    echo "\n";
    var_export($obj);
    echo "\n";
    debug_zval_dump($obj);
    var_dump((array)$obj, get_object_vars($obj), json_encode($obj));
    echo spl_object_id($obj) > 0 ? '' : 'no id', "\n";
    $out = ob_get_clean();
    echo "$name: ", str_contains($out, 'S3cret') || str_contains($out, 'T031-') ? 'LEAKS THE PASSWORD' : 'no password shown', "\n";
    echo "$name: ", str_contains($out, 'Object') && str_contains($out, get_class($obj)) ? 'dumped' : 'NOT DUMPED', "\n";
}
echo "what var_dump shows:\n";
var_dump($lock);

var_dump($lock->unlock('res', $t1), $acl->unlock('res', $t2), $red->unlock('res3', $t3));
?>
--EXPECTF--
bool(true)
bool(true)
bool(true)
lock: no password shown
lock: dumped
acl: no password shown
acl: dumped
red: no password shown
red: dumped
what var_dump shows:
object(RedisLock)#%d (0) {
}
bool(true)
bool(true)
bool(true)
