--TEST--
auto_extend and fork: a forked child does not extend its parent's lock (stopped parent: the lock expires while the child lives), and the child's own auto_extend locks are kept; the parent, resumed, finds its lock lost
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); if (!function_exists('pcntl_fork')) die('skip pcntl'); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:w703', 'lock:w703-child');
$ttl = rl_under_valgrind() ? 2000 : 600;
$parent = rl_php_child_start('
    $l = new RedisLock(' . var_export(rl_test_server(0), true) . ', ["auto_extend" => true]);
    $t = $l->lock("w703", ' . $ttl . ');
    $pid = pcntl_fork();
    if ($pid === 0) {
        // the child: the parent\'s lock is not its own to extend; its own is
        $c = new RedisLock(' . var_export(rl_test_server(0), true) . ', ["auto_extend" => true]);
        $ct = $c->lock("w703-child", ' . $ttl . ');
        echo "child ", getmypid(), " holding\n";
        usleep(' . ($ttl * 4000) . ');
        $r = new RlTestRedis(' . var_export(rl_test_server(0), true) . ');
        // one write: the parent writes to the same output
        echo sprintf("child: own lock kept %s, parent\'s held here %s\n",
            var_export($c->isHeld("w703-child") && $r->get("lock:w703-child") === $ct, true), var_export($l->isHeld("w703"), true));
        $c->unlock("w703-child", $ct);
        exit(0);
    }
    echo "parent holding\n";
    while (!file_exists(' . var_export(sys_get_temp_dir() . '/w703-go', true) . ')) usleep(10000);
    echo sprintf("parent resumed: held %s, unlock %s\n", var_export($l->isHeld("w703"), true), var_export($l->unlock("w703", $t), true));
    pcntl_waitpid($pid, $st);
');
rl_wait_until(fn() => str_contains($parent->output(), 'parent holding') && str_contains($parent->output(), 'child'), 60.0);
$parent->signal(SIGSTOP);   // the parent and its watchdog thread stop; the child runs on
$expired = rl_wait_until(fn() => $r->exists('lock:w703') === 0, 60.0, 0.01);
// expired (a bounded wait): nobody extended it; how soon is the machine's
echo "parent's lock expired while its child lives: ", var_export($expired, true), "\n";
rl_wait_until(fn() => ($at = strpos($parent->output(), 'child: ')) !== false && strpos($parent->output(), "\n", $at) !== false, 60.0);
touch(sys_get_temp_dir() . '/w703-go');
$parent->signal(SIGCONT);
[$exit, $out, $err] = $parent->wait(60);
foreach (explode("\n", trim($out)) as $line) {
    if (!str_contains($line, 'holding')) echo $line, "\n";
}
if ($err !== '') echo "stderr: $err\n";
unlink(sys_get_temp_dir() . '/w703-go');
?>
--EXPECT--
parent's lock expired while its child lives: true
child: own lock kept true, parent's held here false
parent resumed: held false, unlock false
