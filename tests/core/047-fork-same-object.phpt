--TEST--
pcntl_fork: the child uses the parent's RedisLock object on its own connection; its exit leaves the parent's lock and connection alone
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

/* In a fork()ed child: forget the inherited handle of the test's redis-server,
 * so that the child's shutdown neither signals it nor deletes its directory. */
function rl_child_forget_server(RlTestServer $s): void
{
    (function () { $this->proc = null; unset($this->dir); })->call($s);
}

$server = new RlTestServer();
$r = $server->client();
$me = $r->cmd('CLIENT', 'ID');
$ids = function () use ($r, $me) {
    $ids = array_map(fn($c) => (int)$c['id'], $r->clientList());
    $ids = array_values(array_diff($ids, [$me]));
    sort($ids);
    return $ids;
};
$dir = rl_mktemp_dir('rl-fork-');

$lock = new RedisLock($server->addr());
$tp = $lock->lock('parent', 60000);
var_dump($r->get('lock:parent') === $tp);
$parentConn = $ids();
echo "connections before fork: ", count($parentConn), "\n";

$pid = pcntl_fork();
if ($pid === 0) {
    rl_child_forget_server($server);
    $res = [];
    try {
        $tc = $lock->lock('child', 60000);         // the same object, in the child
        $res['child lock'] = is_string($tc) ? 'token' : var_export($tc, true);
        $res['child token'] = $tc;
        // the parent's lock is not the child's: no re-entrant "success"
        $res['child lock on parent resource'] = var_export($lock->lock('parent', 60000), true);
        $res['child acquireLock on parent resource'] = var_export($lock->acquireLock('parent', 60), true);
    } catch (Throwable $e) {
        $res['error'] = get_class($e) . ': ' . $e->getMessage();
    }
    file_put_contents("$dir/child.json", json_encode($res));
    rl_wait_until(fn() => file_exists("$dir/go"), 60.0);
    exit(0);   // normal shutdown: destructors and request end run in the child
}

if (!rl_wait_until(fn() => file_exists("$dir/child.json"), 60.0)) {
    posix_kill($pid, SIGKILL);
    pcntl_waitpid($pid, $st);
    die("child did not report\n");
}
usleep(10000);
$res = json_decode(file_get_contents("$dir/child.json"), true);
$tc = $res['child token'] ?? null;
unset($res['child token']);
foreach ($res as $k => $v) {
    echo "$k: $v\n";
}
var_dump(is_string($tc) && $r->get('lock:child') === $tc);
$during = $ids();
echo "connections while the child runs: ", count($during), "\n";
var_dump(array_values(array_intersect($during, $parentConn)) === $parentConn);  // the parent's is still there

touch("$dir/go");
pcntl_waitpid($pid, $status);
echo "child exit status: ", pcntl_wexitstatus($status), "\n";

echo "-- after the child exited\n";
var_dump($r->get('lock:parent') === $tp);     // not released by the child
var_dump($r->exists('lock:child'));           // the child's own lock: released at its exit
echo "connections: ", rl_wait_until(fn() => count($ids()) === 1, 5.0) ? 1 : count($ids()), "\n";
var_dump($ids() === $parentConn);              // the parent's socket untouched: not even reconnected

echo "-- the parent's object keeps working on its connection\n";
var_dump($lock->lock('parent', 60000) === $tp); // re-entrant: the parent still holds it
$tq = $lock->lock('child', 60000);
var_dump(is_string($tq) && $tq !== $tc && $r->get('lock:child') === $tq);
var_dump($lock->unlock('child', $tq), $r->exists('lock:child'));
var_dump($lock->unlock('parent', $tp), $r->exists('lock:parent'));  // count 2 -> 1
var_dump($lock->unlock('parent', $tp), $r->exists('lock:parent'));  // 1 -> 0: deleted
var_dump($ids() === $parentConn);
rl_rmtree($dir);
?>
--EXPECT--
bool(true)
connections before fork: 1
child lock: token
child lock on parent resource: NULL
child acquireLock on parent resource: false
bool(true)
connections while the child runs: 2
bool(true)
child exit status: 0
-- after the child exited
bool(true)
int(0)
connections: 1
bool(true)
-- the parent's object keeps working on its connection
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
int(1)
bool(true)
int(0)
bool(true)
