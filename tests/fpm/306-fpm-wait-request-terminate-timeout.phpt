--TEST--
php-fpm: request_terminate_timeout kills a request while lock() waits; the next request (new worker) gets clean connections and right answers, and a dead waiter's queue entry does not keep the next waiter from the lock (named next in line, it looks again when the dead one's reservation ends)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

$server = new RlTestServer();
$r = $server->client();
$fpm = new RlTestFpm(['pm.max_children' => 1, 'request_terminate_timeout' => '1s']);
[$worker] = $fpm->workers();

// Another process holds the lock, and keeps it.
$holder = new RedisLock($server->addr());
$held = $holder->lock('r306', 60000);
var_dump(is_string($held));

$fpm->writeScript('wait.php', <<<'PHP'
    <?php
    $lock = new RedisLock($_GET['addr']);
    $token = $lock->lock('r306', 1000, 30.0);
    echo "lock returned after 30 s: ", var_export($token, true), "\n";
    PHP);
$fpm->writeScript('next.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";
    // The pool's 1 s request_terminate_timeout is for the killed request: once
    // the response is sent it no longer applies (request_terminate_timeout_track_finished
    // is off), and the rest of this request is told in a file, not bound by
    // how fast a busy machine runs it.
    fastcgi_finish_request();
    ob_start();
    register_shutdown_function(function () {
        file_put_contents($_GET['out'], ob_get_clean() . (error_get_last()['message'] ?? '') . "end\n");
    });
    $lock = new RedisLock($_GET['addr'], ['auto_release' => false]);
    $t1 = $lock->lock('r306-other', 60000);
    echo "lock other: ", is_string($t1) && strlen($t1) === 32 ? 'a token' : var_export($t1, true), "\n";
    echo "lock held one: ", var_export($lock->lock('r306', 1000), true), "\n";
    echo "extend other: ", var_export($lock->extend('r306-other', $t1, 60000), true), "\n";
    echo "extend other, wrong token: ", var_export($lock->extend('r306-other', str_repeat('0', 32), 60000), true), "\n";
    echo "unlock other: ", var_export($lock->unlock('r306-other', $t1), true), "\n";
    echo "unlock other again: ", var_export($lock->unlock('r306-other', $t1), true), "\n";
    // queues behind the killed waiter's entry; the test releases the holder meanwhile
    $before = RedisLock::stats();
    $t2 = $lock->lock('r306', 60000, 30.0);
    $after = RedisLock::stats();
    echo "lock after the holder's release: ", is_string($t2) ? $t2 : var_export($t2, true), "\n";
    // the release woke the dead one: this waiter was not woken, it looked again itself
    echo "woken: ", $after['waits_woken'] - $before['waits_woken'], ", looked again: ",
        $after['waits_rechecked'] - $before['waits_rechecked'] >= 1 ? 'yes' : 'NO', "\n";
    foreach (RedisLock::stats()['connections'] as $c) {
        if ($c['role'] === 'command') {
            echo "pool: {$c['role']}, ", $c['open'] ? 'open' : 'closed', ", {$c['connects']} connects, {$c['reconnects']} reconnects\n";
        }
    }
    PHP);
$q = ['addr' => $server->addr()];

$res = $fpm->request('wait.php', $q, 20);
echo "response: ", var_export($res['body'], true), "\n";
$log = $fpm->errorLog();
echo "php-fpm log: ", preg_match("/child $worker, script '[^']*wait\.php' \(request: \"GET [^\"]*\"\) execution timed out \([\d.]+ sec\), terminating/", $log) ? 'request timed out, terminating' : "NOT FOUND:\n$log", "\n";
var_dump(rl_wait_until(fn() => count($fpm->workers()) === 1 && $fpm->workers() !== [$worker], 10.0));
echo "holder still holds it: ", $r->get('lock:r306') === $held ? 'yes' : 'NO', "\n";
// the killed waiter is still queued (until its deadline)
echo "queue entries: ", $r->cmd('LLEN', rl_derived_key("lock:r306", "q")), "\n";

echo "-- next request, on the new worker\n";
$out = $fpm->dir() . '/next.out';
$res = $fpm->request('next.php', $q + ['out' => $out], 30);
echo "new worker: ", [RlTestFpm::pidOf($res)] === $fpm->workers() && RlTestFpm::pidOf($res) !== $worker ? 'yes' : 'NO', "\n";
$q306 = rl_derived_key("lock:r306", "q");
$queued = rl_wait_until(fn() => $r->cmd('LLEN', $q306) > 1 || str_ends_with((string)@file_get_contents($out), "end\n"), 30.0);
echo "waiter queued behind the dead one: ", $queued && $r->cmd('LLEN', $q306) === 2 ? 'yes' : 'NO', "\n";
$ids = array_map(fn($e) => substr($e, strpos($e, ':') + 1), $r->cmd('LRANGE', $q306, 0, -1));
var_dump($holder->unlock('r306', $held));   // wakes the dead waiter, and names the live one next in line
// what the release wrote to the wake streams: the dead one woken, the live
// one named next in line (it looks again when the dead one's 200 ms
// reservation ends, not at its 2 s recheck: unit_wait.c times that on a
// clock of its own; a busy machine makes any clock here a bet)
$wakes = [];
foreach (range('A', 'P') as $b) {
    foreach ($r->cmd('XRANGE', rl_derived_key('lock:r306', $b), '-', '+') as [, $fields]) {
        for ($i = 0; $i + 1 < count($fields); $i += 2) {
            $wakes[] = $fields[$i] . ' ' . (array_search($fields[$i + 1], $ids, true) === 0 ? 'the dead one'
                : (array_search($fields[$i + 1], $ids, true) === 1 ? 'the live one' : 'another'));
        }
    }
}
sort($wakes);
echo "wakes: ", implode(', ', $wakes), "\n";
rl_wait_until(fn() => str_ends_with((string)@file_get_contents($out), "end\n"), 60.0);
$body = (string)@file_get_contents($out);
preg_match("/release: (\S+)\n/", $body, $m);
$t2 = $m[1] ?? '';
echo str_replace($t2, 'TOKEN', $body), $res['stderr'];
echo "the key holds that token: ", $t2 !== '' && $r->get('lock:r306') === $t2 ? 'yes' : 'NO', "\n";
var_dump($r->exists('lock:r306-other'));
$r->del('lock:r306');
?>
--EXPECT--
bool(true)
response: ''
php-fpm log: request timed out, terminating
bool(true)
holder still holds it: yes
queue entries: 1
-- next request, on the new worker
new worker: yes
waiter queued behind the dead one: yes
bool(true)
wakes: n the live one, w the dead one
lock other: a token
lock held one: NULL
extend other: true
extend other, wrong token: false
unlock other: true
unlock other again: false
lock after the holder's release: TOKEN
woken: 0, looked again: yes
pool: command, open, 1 connects, 0 reconnects
end
the key holds that token: yes
int(0)
