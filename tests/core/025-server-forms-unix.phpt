--TEST--
Unix socket server forms: "unix:///path", "unix:/path" and ['host' => '/path']
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer([], withUnixSocket: true);
$sock = $srv->unixSocket();
$c = $srv->client();   // over TCP
var_dump(rl_wait_until(fn() => file_exists($sock), 10.0));

$unixClients = function () use ($c): int {
    return count(array_filter($c->clientList(), fn($cl) => str_contains($cl['flags'], 'U')));
};

$forms = [
    'unix:///path' => "unix://$sock",
    'unix:/path' => "unix:$sock",
    "['host' => '/path']" => ['host' => $sock],
];
$keep = [];
foreach ($forms as $what => $server) {
    $l = new RedisLock($server, ['persistent' => false]);
    $t = $l->lock('t025', 30000);
    echo "$what: ", is_string($t) && $c->get('lock:t025') === $t ? 'locked' : 'NOT locked', "\n";
    echo "  clients on the unix socket: ", $unixClients(), "\n";
    var_dump($l->extend('t025', $t, 20000));
    var_dump($l->unlock('t025', $t));
    var_dump($c->exists('lock:t025'));
    $keep[] = $l;   // its connection stays open
}
echo "TCP clients besides ours: ", count($c->clientList()) - 1 - $unixClients(), "\n";

// acquireLock/releaseLock too, with a persistent connection.
$l = new RedisLock("unix://$sock");
var_dump($l->acquireLock('t025', 5));
var_dump($c->exists('lock:t025'));
var_dump($l->releaseLock('t025'));
var_dump($c->exists('lock:t025'));

// A socket that does not exist is a connection error naming the path.
try {
    (new RedisLock("unix://$sock.missing"))->lock('t025', 1000);
} catch (RedisLockException $e) {
    echo get_class($e), ': ', str_replace($sock, 'SOCK', $e->getMessage()), "\n";
}
?>
--EXPECT--
bool(true)
unix:///path: locked
  clients on the unix socket: 1
bool(true)
bool(true)
int(0)
unix:/path: locked
  clients on the unix socket: 2
bool(true)
bool(true)
int(0)
['host' => '/path']: locked
  clients on the unix socket: 3
bool(true)
bool(true)
int(0)
TCP clients besides ours: 0
bool(true)
int(1)
bool(true)
int(0)
RedisLockConnectionException: Redis node unix:SOCK.missing: connect: No such file or directory
