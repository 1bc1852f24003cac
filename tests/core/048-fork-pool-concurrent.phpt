--TEST--
pcntl_fork: parent and child use the inherited pool at the same time; each gets its own connection and only its own replies
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

function rl_child_forget_server(RlTestServer $s): void
{
    (function () { $this->proc = null; unset($this->dir); })->call($s);
}

/* $n lock/check/unlock rounds on $who-$i; returns the number of wrong answers. */
function hammer(RedisLock $lock, RlTestRedis $r, string $who, int $n): int
{
    $bad = 0;
    for ($i = 0; $i < $n; $i++) {
        $t = $lock->lock("$who-$i", 60000);
        $bad += !is_string($t) || $r->get("lock:$who-$i") !== $t;
        $bad += $lock->lock("$who-$i", 60000) !== $t;                  // re-entrant: same token
        $bad += $lock->unlock("$who-$i", $t) !== true || $r->exists("lock:$who-$i") !== 1;
        $bad += $lock->unlock("$who-$i", $t) !== true || $r->exists("lock:$who-$i") !== 0;
        $bad += $lock->unlock("$who-$i", $t) !== false;                // gone
        $bad += $lock->acquireLock("$who-x", 60) !== true || $lock->releaseLock("$who-x") !== true;
    }
    return $bad;
}

$n = rl_under_valgrind() ? 40 : 300;
$server = new RlTestServer();
$r = $server->client();
$received = fn() => (int)$r->info('stats')['total_connections_received'];
$dir = rl_mktemp_dir('rl-fork-');

$lock = new RedisLock($server->addr());
var_dump($lock->acquireLock('warm', 60) && $lock->releaseLock('warm'));   // pooled connection open
$start = $received();

$pid = pcntl_fork();
if ($pid === 0) {
    rl_child_forget_server($server);
    $code = 1;
    try {
        $cr = $server->client();                       // the child's own checking client
        $cl = new RedisLock($server->addr());          // same pool key as the parent's
        rl_wait_until(fn() => file_exists("$dir/go"), 60.0);
        $bad = hammer($cl, $cr, 'child', $n) + hammer($lock, $cr, 'child-inherited', $n);
        file_put_contents("$dir/child", "child wrong answers: $bad\n");
        $code = 0;
    } catch (Throwable $e) {
        file_put_contents("$dir/child", "child: " . get_class($e) . ': ' . $e->getMessage() . "\n");
    }
    exit($code);
}

touch("$dir/go");
$bad = 0;
try {
    $bad = hammer($lock, $r, 'parent', $n) + hammer(new RedisLock($server->addr()), $r, 'parent-new', $n);
    echo "parent wrong answers: $bad\n";
} catch (Throwable $e) {
    echo "parent: ", get_class($e), ': ', $e->getMessage(), "\n";
}
pcntl_waitpid($pid, $status);
echo "child exit status: ", pcntl_wexitstatus($status), "\n";
echo file_get_contents("$dir/child");
// the parent kept its pooled connection; the child opened exactly one of its own
// for the extension (plus one for its checking client)
echo "connections opened after fork: ", $received() - $start, "\n";
var_dump($r->keys('*'));
echo "connections: ", rl_wait_until(fn() => $r->clientCount() === 1, 5.0) ? 1 : $r->clientCount(), "\n";
rl_rmtree($dir);
?>
--EXPECT--
bool(true)
parent wrong answers: 0
child exit status: 0
child wrong answers: 0
connections opened after fork: 2
array(0) {
}
connections: 1
