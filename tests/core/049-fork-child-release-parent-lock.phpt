--TEST--
pcntl_fork: the child does not own the parent's locks: releaseLock() in the child returns false and leaves them; the child's own are its to release
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

$server = new RlTestServer();
$r = $server->client();
$dir = rl_mktemp_dir('rl-fork-');

$lock = new RedisLock($server->addr());
var_dump($lock->acquireLock('parent', 60));
$tp = $r->get('lock:parent');

$pid = pcntl_fork();
if ($pid === 0) {
    rl_child_forget_server($server);
    $out = '';
    try {
        // what a shared "finally { releaseLock() }" would do in a worker child
        $out .= 'child releaseLock(parent): ' . var_export($lock->releaseLock('parent'), true) . "\n";
        $out .= 'child acquireLock(own): ' . var_export($lock->acquireLock('own', 60), true) . "\n";
        $out .= 'child releaseLock(own): ' . var_export($lock->releaseLock('own'), true) . "\n";
    } catch (Throwable $e) {
        $out .= get_class($e) . ': ' . $e->getMessage() . "\n";
    }
    file_put_contents("$dir/child", $out);
    exit(0);
}
pcntl_waitpid($pid, $status);
echo "child exit status: ", pcntl_wexitstatus($status), "\n";
echo file_get_contents("$dir/child");

echo "-- parent\n";
var_dump($r->get('lock:parent') === $tp);      // still the parent's
var_dump($r->exists('lock:own'));
var_dump($lock->releaseLock('parent'), $r->exists('lock:parent'));
rl_rmtree($dir);
?>
--EXPECT--
bool(true)
child exit status: 0
child releaseLock(parent): false
child acquireLock(own): true
child releaseLock(own): true
-- parent
bool(true)
int(0)
bool(true)
int(0)
