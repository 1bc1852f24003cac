--TEST--
Persistent pool: 300 RedisLock objects in one process share one Redis connection
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$server = new RlTestServer();
$r = $server->client();
$me = $r->cmd('CLIENT', 'ID');
$others = fn() => array_values(array_filter($r->clientList(), fn($c) => (int)$c['id'] !== $me));

$before = (int)$r->info('stats')['total_connections_received'];
var_dump(count($others()));

$n = rl_under_valgrind() ? 100 : 300;
$bad = 0;
for ($i = 0; $i < $n; $i++) {
    $lock = new RedisLock($server->addr());          // a new object each time
    $token = $lock->lock("res-$i", 60000);
    if (!is_string($token) || $r->get("lock:res-$i") !== $token) {
        $bad++;
    }
    if ($lock->unlock("res-$i", $token) !== true || $r->exists("lock:res-$i") !== 0) {
        $bad++;
    }
    // the other API, on yet another object
    $lock = new RedisLock($server->addr());
    if ($lock->acquireLock("acq-$i", 60) !== true || $r->exists("lock:acq-$i") !== 1) {
        $bad++;
    }
    if ($lock->releaseLock("acq-$i") !== true || $r->exists("lock:acq-$i") !== 0) {
        $bad++;
    }
    unset($lock);
}
echo "wrong results: $bad\n";

$after = (int)$r->info('stats')['total_connections_received'];
echo "connections opened by the extension: ", $after - $before, "\n";
$clients = $others();
echo "extension clients in CLIENT LIST: ", count($clients), "\n";
// that one connection was the one that served the calls
// (the release's: the script, or where the server has its own compare-and-delete, EXISTS of the waiters' queue after it)
$last = $clients[0]['cmd'] ?? '-';
echo "its last command: ", in_array($last, ['evalsha', 'exists'], true) ? "the release's" : $last, "\n";
var_dump($r->keys('lock:*'));
?>
--EXPECT--
int(0)
wrong results: 0
connections opened by the extension: 1
extension clients in CLIENT LIST: 1
its last command: the release's
array(0) {
}
