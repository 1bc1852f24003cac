--TEST--
phpinfo()/php --ri: version, hiredis version, and the INI entries with local and master values
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--INI--
redislock.connect_timeout=1.5
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

ini_set('redislock.timeout', '2.5');
ini_set('redislock.auto_release', '0');

ob_start();
(new ReflectionExtension('redislock'))->info();
$info = ob_get_clean();
echo str_replace(phpversion('redislock'), 'VERSION', $info);

// phpinfo(INFO_MODULES) shows the same lines (it sorts the INI entries).
ob_start();
phpinfo(INFO_MODULES);
$all = explode("\n", ob_get_clean());
var_dump(array_values(array_diff(array_filter(explode("\n", $info)), $all)));
var_dump(preg_match('/^\d+\.\d+\.\d+/', phpversion('redislock')) === 1);
var_dump(ini_get('redislock.connect_timeout'), ini_get('redislock.timeout'), ini_get('redislock.persistent'), ini_get('redislock.auto_release'));
?>
--EXPECTF--
redislock

redislock support => enabled
Version => VERSION
hiredis version%s=> %d.%d.%d
%A
Directive => Local Value => Master Value
redislock.connect_timeout => 1.5 => 1.5
redislock.timeout => 2.5 => 1.0
redislock.persistent => On => On
redislock.auto_release => Off => On
array(0) {
}
bool(true)
string(3) "1.5"
string(3) "2.5"
string(1) "1"
string(1) "0"
