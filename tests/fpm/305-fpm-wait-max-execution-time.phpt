--TEST--
php-fpm: lock() waiting for a held lock under max_execution_time=1 gives up at the request's time budget and returns null; the worker's next request gets clean connections (right answers, no stale reply)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

$server = new RlTestServer();
$r = $server->client();
$fpm = new RlTestFpm(['pm.max_children' => 1, 'php_value[max_execution_time]' => 1]);
[$worker] = $fpm->workers();

// Another process holds the lock, and keeps it.
$holder = new RedisLock($server->addr());
$held = $holder->lock('r305', 60000);
var_dump(is_string($held));

$fpm->writeScript('wait.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    echo "max_execution_time: ", ini_get('max_execution_time'), "\n";
    $lock = new RedisLock($_GET['addr']);
    $t0 = hrtime(true);
    $token = $lock->lock('r305', 1000, 30.0);
    $waited = (hrtime(true) - $t0) / 1e9;
    echo "lock: ", var_export($token, true), "\n";
    // it did wait, and stopped at the request's budget, not after 30 s
    echo "waited: ", $waited >= 0.5 && $waited < 15 ? 'up to the budget' : "$waited s", "\n";
    echo "the request goes on\n";
    PHP);
$fpm->writeScript('next.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    set_time_limit(30);
    $lock = new RedisLock($_GET['addr'], ['auto_release' => false]);
    $t1 = $lock->lock('r305-other', 60000);
    echo "lock other: ", is_string($t1) && strlen($t1) === 32 ? 'a token' : var_export($t1, true), "\n";
    echo "lock held one: ", var_export($lock->lock('r305', 1000), true), "\n";
    echo "extend other: ", var_export($lock->extend('r305-other', $t1, 60000), true), "\n";
    echo "extend other, wrong token: ", var_export($lock->extend('r305-other', str_repeat('0', 32), 60000), true), "\n";
    echo "unlock other: ", var_export($lock->unlock('r305-other', $t1), true), "\n";
    echo "unlock other again: ", var_export($lock->unlock('r305-other', $t1), true), "\n";
    // waits again on the same pooled connections; the test releases the holder meanwhile
    $t2 = $lock->lock('r305', 60000, 20.0);
    echo "lock after the holder's release: ", is_string($t2) ? $t2 : var_export($t2, true), "\n";
    $s = RedisLock::stats();
    echo "acquired {$s['acquired']}, contended {$s['contended']}, failed {$s['failed']}, released {$s['released']}\n";
    PHP);
$q = ['addr' => $server->addr()];

$res = $fpm->request('wait.php', $q, 20);
echo "status: {$res['status']}\n";
echo "worker: ", RlTestFpm::pidOf($res) === $worker ? 'the one' : 'ANOTHER', "\n";
echo substr($res['body'], strpos($res['body'], "\n") + 1), $res['stderr'];
echo "holder still holds it: ", $r->get('lock:r305') === $held ? 'yes' : 'NO', "\n";
// the waiter left the queue: only the lock key is there
var_dump(rl_wait_until(fn() => $r->keys('lock:r305*') === ['lock:r305'], 5.0));

echo "-- next request, same worker\n";
$req = $fpm->start('next.php', $q, 30);
// once it waits (queued), the holder releases
$queued = rl_wait_until(fn() => $r->cmd('LLEN', rl_derived_key("lock:r305", "q")) > 0 || $req->done(), 20.0);
echo "waiter queued: ", $queued && !$req->done() ? 'yes' : 'NO', "\n";
var_dump($holder->unlock('r305', $held));
$res = $req->wait();
echo "same worker: ", RlTestFpm::pidOf($res) === $worker && $fpm->workers() === [$worker] ? 'yes' : 'NO', "\n";
$body = substr($res['body'], strpos($res['body'], "\n") + 1);
preg_match("/release: (\S+)\n/", $body, $m);
$t2 = $m[1] ?? '';
echo str_replace($t2, 'TOKEN', $body), $res['stderr'];
echo "the key holds that token: ", $t2 !== '' && $r->get('lock:r305') === $t2 ? 'yes' : 'NO', "\n";
var_dump($r->exists('lock:r305-other'));
$r->del('lock:r305');
?>
--EXPECT--
bool(true)
status: 200
worker: the one
max_execution_time: 1
lock: NULL
waited: up to the budget
the request goes on
holder still holds it: yes
bool(true)
-- next request, same worker
waiter queued: yes
bool(true)
same worker: yes
lock other: a token
lock held one: NULL
extend other: true
extend other, wrong token: false
unlock other: true
unlock other again: false
lock after the holder's release: TOKEN
acquired 2, contended 3, failed 0, released 1
the key holds that token: yes
int(0)
