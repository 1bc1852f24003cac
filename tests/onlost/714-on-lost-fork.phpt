--TEST--
on_lost and fork: a forked child never gets its parent's loss (the parent's lock lost while the child runs busy code: the parent is told, the child not); the child's own lock lost is told to the child
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); if (!function_exists('pcntl_fork')) die('skip pcntl'); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/onlost.inc';

$ttl = rl_under_valgrind() ? 3000 : 600;
$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:ol714', 'lock:ol714c', 'ol714-told');
$l = new RedisLock(rl_test_server(0), ['auto_extend' => true, 'on_lost' => 'throw']);
$t = $l->lock('ol714', $ttl);
$pid = pcntl_fork();
if ($pid === 0) {
    $c = new RlTestRedis(rl_test_server(0));
    // busy until the parent was told (and then its watchdog's lost watch is gone)
    $e = ol_quiet(fn() => $c->exists('ol714-told') === 1);
    $line = 'child: parent\'s loss here: ' . var_export($e, true);
    $own = new RedisLock(rl_test_server(0), ['auto_extend' => true, 'on_lost' => 'throw']);
    $ot = $own->lock('ol714c', $ttl);
    $c->del('lock:ol714c');
    [$e, $how] = ol_spin(fn() => $own->getValidity('ol714c') === 0);
    echo $line, ', its own: ', $how, ' ', $e ? explode('"', $e->getMessage())[1] : '-', "\n";
    exit(0);
}
$r->del('lock:ol714');
[$e, $how] = ol_spin(fn() => $l->getValidity('ol714') === 0);
$r->set('ol714-told', '1');
pcntl_waitpid($pid, $status);
echo 'parent: ', $how, ' ', $e ? explode('"', $e->getMessage())[1] : '-', ', child exit ', pcntl_wexitstatus($status), "\n";
$r->del('ol714-told');
?>
--EXPECT--
child: parent's loss here: NULL, its own: interrupted ol714c
parent: interrupted ol714, child exit 0
