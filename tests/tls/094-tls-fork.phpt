--TEST--
TLS: a forked child never writes on the parent's TLS session (no close_notify): it makes its own; the parent's keeps working
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); rl_skip_unless_tls(); ?>
--EXTENSIONS--
redislock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../tls.inc';

$pki = new RlTestPki();
$s = rl_tls_server($pki);
$r = $s->client();
$me = $r->cmd('CLIENT', 'ID');
$ids = function () use ($r, $me) {
    $ids = array_values(array_diff(array_map(fn($c) => (int)$c['id'], $r->clientList()), [$me]));
    sort($ids);
    return $ids;
};
$dir = rl_mktemp_dir('rl-tlsfork-');

$lock = new RedisLock($s->tlsAddr(), ['tls' => ['cafile' => $pki->path('ca.crt')]]);
$tp = $lock->lock('parent', 60000);
$parentConn = $ids();
echo "connections before fork: ", count($parentConn), "\n";

$pid = pcntl_fork();
if ($pid === 0) {
    Closure::bind(function () { $this->proc = null; unset($this->dir); }, $s, RlTestServer::class)();
    (function () { $this->dir = '/nonexistent'; })->call($pki);
    $res = [];
    try {
        $tc = $lock->lock('child', 60000);
        $res['child lock'] = is_string($tc) ? 'token' : var_export($tc, true);
        $res['child unlock'] = var_export($lock->unlock('child', $tc), true);
    } catch (Throwable $e) {
        $res['error'] = get_class($e) . ': ' . $e->getMessage();
    }
    file_put_contents("$dir/child.json", json_encode($res));
    exit(0);
}
pcntl_waitpid($pid, $status);
echo "child exit status: ", pcntl_wexitstatus($status), "\n";
foreach (json_decode((string)@file_get_contents("$dir/child.json"), true) ?? ['no report' => ''] as $k => $v) {
    echo "$k: $v\n";
}
echo "connections: ", rl_wait_until(fn() => count($ids()) === 1, 5.0) ? 1 : count($ids()), "\n";
var_dump($ids() === $parentConn);               // the parent's session was not touched
var_dump($r->get('lock:parent') === $tp);
var_dump($lock->unlock('parent', $tp), $r->exists('lock:parent'));
var_dump($ids() === $parentConn);               // still the same connection: no reconnect
echo "connects: ", RedisLock::stats()['connections'][0]['connects'], "\n";
rl_rmtree($dir);
?>
--EXPECT--
connections before fork: 1
child exit status: 0
child lock: token
child unlock: true
connections: 1
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
connects: 1
