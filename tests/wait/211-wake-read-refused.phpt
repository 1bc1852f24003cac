--TEST--
A waiter whose blocking read the server refuses (an ACL without XREAD) is not silently left to poll: each failure is counted (stats() wake_errors, the pool's redislock_wake_errors_total), told to the logger (wake-failed, warning, naming the node and its error, no password), and the waiter still has the lock after the release (its next look)
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--FILE--
<?php
require __DIR__ . '/../woken.inc';

$srv = new RlTestServer();
$r = $srv->client();
$r->cmd('ACL', 'SETUSER', 'noxread', 'on', '>s3cret-211', '~*', '+@all', '-xread');
$addr = 'redis://noxread:s3cret-211@' . $srv->addr();
$holder = new RedisLock($srv->addr());
$token = $holder->lock('w211', 120000);
$slow = rl_under_valgrind();

$waiter = rl_php_child_start('
$events = [];
$l = new RedisLock(' . var_export($addr, true) . ', ["logger" => function ($level, $message, $context) use (&$events) {
    if ($context["event"] === "wake-failed") {
        $events[] = [$level, $message, $context["node"], $context["error"]];
    }
}]);
$before = RedisLock::stats()["wake_errors"];
$t = $l->lock("w211", 5000, ' . ($slow ? 120.0 : 40.0) . ');
echo "waiter: ", is_string($t) ? "locked" : "not locked", "\n";
echo "wake errors counted: ", RedisLock::stats()["wake_errors"] - $before >= 1 ? "yes" : "no", "\n";
echo "counted in the metrics: ", str_contains(RedisLock::metrics(), "redislock_wake_errors_total 0") ? "no" : "yes", "\n";
echo "told: ", count($events) >= 1 ? "yes" : "no", "\n";
[$level, $message, $node, $error] = $events[0] ?? ["", "", "", ""];
echo "level: $level; message: $message; node: ", $node === ' . var_export($srv->addr(), true) . ' ? "the server" : $node,
    "; error: ", str_contains($error, "NOPERM") ? "NOPERM" : $error, "\n";
echo "a password anywhere: ", str_contains(json_encode($events), "s3cret") ? "yes" : "no", "\n";
');
// the waiter's XREADs are refused (it looks again at once, then at its recheck): release after two
$refused = fn() => (int)(explode(',', explode('rejected_calls=', (string)strstr($r->cmd('INFO', 'commandstats'), 'cmdstat_xread:'))[1] ?? '0')[0]);
echo "refused twice: ", var_export(rl_wait_until(fn() => $refused() >= 2, $slow ? 100 : 30), true), "\n";
var_dump($holder->unlock('w211', $token));
[$code, $out, $err] = $waiter->wait($slow ? 200 : 60);
echo $out, $err, "exit: $code\n";
?>
--EXPECT--
refused twice: true
bool(true)
waiter: locked
wake errors counted: yes
counted in the metrics: yes
told: yes
level: warning; message: redislock: wake-failed w211; node: the server; error: NOPERM
a password anywhere: no
exit: 0
