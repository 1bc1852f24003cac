--TEST--
A 400-character host name: messages, logger context, stats and phpinfo show the endpoint cut visibly with "...", never more; the call fails cleanly
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$host = str_repeat('h', 398) . 'ZZ';
$events = [];
$lock = new RedisLock("$host:6379", ['connect_timeout' => 0.5, 'logger' => function ($l, $m, $ctx) use (&$events) {
    $events[] = $ctx;
}]);
try {
    $lock->lock('l059', 1000);
    echo "no exception\n";
} catch (RedisLockConnectionException $e) {
    $m = $e->getMessage();
    echo "code ", $e->getCode(), "\n";
    echo "cut visibly: ", var_export(str_contains($m, str_repeat('h', 200)) && str_contains($m, '...'), true), "\n";
    echo "no end of the name: ", var_export(!str_contains($m, 'ZZ'), true), "\n";
    echo "message under 600 bytes: ", var_export(strlen($m) < 600, true), "\n";
}
$node = array_key_first($events[0]['nodes']);
echo "logger node name ends with ...: ", var_export(str_ends_with($node, '...') && strlen($node) < 300, true), "\n";
$rows = array_values(array_filter(RedisLock::stats()['connections'], fn($r) => str_starts_with($r['endpoint'], 'hhhh')));
echo "stats endpoint cut: ", var_export(count($rows) === 1 && str_ends_with($rows[0]['endpoint'], '...'), true), "\n";
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
echo "phpinfo has no end of the name: ", var_export(!str_contains($info, 'hZZ'), true), "\n";
?>
--EXPECT--
code 1
cut visibly: true
no end of the name: true
message under 600 bytes: true
logger node name ends with ...: true
stats endpoint cut: true
phpinfo has no end of the name: true
