--TEST--
php-fpm: a request that dies of memory_limit while holding a lock (TTL 60 s) frees it before its response ends; the same worker serves the next request normally
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

$server = new RlTestServer();
$r = $server->client();
$fpm = new RlTestFpm(['pm.max_children' => 1, 'php_admin_value[memory_limit]' => '32M']);
[$worker] = $fpm->workers();

$fpm->writeScript('die.php', <<<'PHP'
    <?php
    $lock = new RedisLock($_GET['addr']);
    $token = $lock->lock('r302', 60000);
    // the test looks at the lock, then lets the critical section go on
    for ($i = 0; $i < 6000 && !file_exists($_GET['go']); $i++) {
        usleep(10000);
    }
    $hog = [];
    for ($i = 0; $i < 1024; $i++) {
        $hog[] = str_repeat('x', 1 << 20);
    }
    echo "memory_limit not enforced\n";
    PHP);
$fpm->writeScript('next.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    $lock = new RedisLock($_GET['addr']);
    $token = $lock->lock('r302', 60000);
    echo "lock: ", is_string($token) ? 'token' : var_export($token, true), "\n";
    echo "unlock: ", var_export($lock->unlock('r302', $token), true), "\n";
    $stats = RedisLock::stats();
    foreach (['acquired', 'released', 'auto_released', 'expired', 'failed'] as $k) {
        echo "$k: {$stats[$k]}\n";
    }
    foreach ($stats['connections'] as $c) {
        echo "pool: {$c['role']}, ", $c['open'] ? 'open' : 'closed', ", {$c['connects']} connects, {$c['reconnects']} reconnects\n";
    }
    PHP);

$go = $fpm->dir() . '/go';
$req = $fpm->start('die.php', ['addr' => $server->addr(), 'go' => $go]);
var_dump(rl_wait_until(fn() => $r->exists('lock:r302') === 1 || $req->done(), 20.0));
$token = $r->get('lock:r302');
$ttl = $r->pttl('lock:r302');
echo "held during the request: ", is_string($token) && strlen($token) >= 16 && $ttl > 50000 ? 'yes' : "NO (ttl $ttl)", "\n";

touch($go);
$res = $req->wait();
$after = $r->pttl('lock:r302');   // at once: the TTL had 50+ s left
echo "status: {$res['status']}\n";
echo "body: '{$res['body']}'\n";
echo "stderr: {$res['stderr']}\n";
echo "PTTL right after the response: $after\n";

echo "-- next request\n";
$res = $fpm->request('next.php', ['addr' => $server->addr()]);
echo "same worker: ", RlTestFpm::pidOf($res) === $worker && $fpm->workers() === [$worker] ? 'yes' : 'NO', "\n";
echo substr($res['body'], strpos($res['body'], "\n") + 1), $res['stderr'];
var_dump($r->keys('lock:*'));
?>
--EXPECTF--
bool(true)
held during the request: yes
status: 500
body: ''
stderr: PHP message: PHP Fatal error:  Allowed memory size of 33554432 bytes exhausted %A
PTTL right after the response: -2
-- next request
same worker: yes
lock: token
unlock: true
acquired: 2
released: 2
auto_released: 1
expired: 0
failed: 0
pool: command, open, 1 connects, 0 reconnects
array(0) {
}
