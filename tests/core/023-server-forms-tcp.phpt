--TEST--
Server forms "host:port", "tcp://host:port" and ['host' => .., 'port' => ..] all reach the same node
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$host = rl_test_host();
$port = rl_test_port(0);
$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t023');

$forms = [
    'host:port' => "$host:$port",
    'tcp://host:port' => "tcp://$host:$port",
    'array' => ['host' => $host, 'port' => $port],
    'array, port first' => ['port' => $port, 'host' => $host],
];
$locks = [];
foreach ($forms as $what => $server) {
    $locks[$what] = $l = new RedisLock($server);
    $t = $l->lock('t023', 30000);
    echo "$what: ", is_string($t) && $r->get('lock:t023') === $t ? 'locked on the node' : 'NOT locked', "\n";
    // Every other form sees it held.
    foreach ($forms as $otherWhat => $otherServer) {
        if ($otherWhat !== $what && (new RedisLock($otherServer))->lock('t023', 30000) !== null) {
            echo "  $otherWhat took it too\n";
        }
    }
    var_dump($l->unlock('t023', $t));
    var_dump($r->exists('lock:t023'));
}
?>
--EXPECT--
host:port: locked on the node
bool(true)
int(0)
tcp://host:port: locked on the node
bool(true)
int(0)
array: locked on the node
bool(true)
int(0)
array, port first: locked on the node
bool(true)
int(0)
