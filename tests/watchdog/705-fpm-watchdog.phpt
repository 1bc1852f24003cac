--TEST--
php-fpm with auto_extend: a request that holds a lock (TTL 1 s) past its TTL keeps it; killed by max_execution_time it releases it at once; killed by request_terminate_timeout (the worker dies) the lock is free within one TTL; the next request (a new worker) extends its own lock normally
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

$server = new RlTestServer();
$r = $server->client();
$fpm = new RlTestFpm(['pm.max_children' => 1, 'request_terminate_timeout' => '10s']);
$fpm->writeScript('hold.php', <<<'PHP'
    <?php
    $lock = new RedisLock($_GET['addr'], ['auto_extend' => true]);
    $token = $lock->lock($_GET['key'], 1000);
    if ($_GET['end'] === 'max_execution_time') {
        set_time_limit(2);
        $x = '';
        for ($i = 0; $i < 1e9; $i++) {   // CPU until the 2 s limit ends it
            $x = md5($x);
        }
    } elseif ($_GET['end'] === 'terminate') {
        sleep(30);                        // request_terminate_timeout (10 s: under load, room for the 2 s of CPU above) kills the worker
    } else {
        usleep(2500000);
        echo "held after 2.5 s: ", var_export($lock->isHeld($_GET['key']) && $lock->getValidity($_GET['key']) > 0, true), "\n";
        echo "unlock: ", var_export($lock->unlock($_GET['key'], $token), true), "\n";
    }
    PHP);
$q = ['addr' => $server->addr()];

foreach (['normal', 'max_execution_time', 'terminate', 'normal'] as $i => $end) {
    $key = "w705-$i";
    $req = $fpm->start('hold.php', $q + ['key' => $key, 'end' => $end], 30);
    rl_wait_until(fn() => $r->exists("lock:$key") === 1 || $req->done(), 20.0);
    usleep(1500000);
    $held = $r->exists("lock:$key") === 1;
    $res = $req->wait();
    $done = microtime(true);
    rl_wait_until(fn() => $r->exists("lock:$key") === 0, 5.0, 0.01);
    $free = (microtime(true) - $done) * 1000;
    echo "$end: held past its TTL: ", var_export($held, true), ", status {$res['status']}, ";
    if ($end === 'normal') {
        echo implode('; ', explode("\n", trim($res['body']))), "\n";
    } elseif ($end === 'max_execution_time') {
        echo "free at once: ", var_export($free < 100, true), "\n";
    } else {   // status 0: php-fpm closed the connection with the worker
        echo "free within one TTL: ", var_export($free <= 1100, true), "\n";
    }
}
?>
--EXPECT--
normal: held past its TTL: true, status 200, held after 2.5 s: true; unlock: true
max_execution_time: held past its TTL: true, status 500, free at once: true
terminate: held past its TTL: true, status 0, free within one TTL: true
normal: held past its TTL: true, status 200, held after 2.5 s: true; unlock: true
