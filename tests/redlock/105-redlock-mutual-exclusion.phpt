--TEST--
RedLock: 6 processes x 100 read-sleep-write increments under a 3-node lock lose no update
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$servers = rl_test_servers(3);
$counter = new RlTestRedis(rl_test_server(3));
$counter->del('rl105-counter');
$n = rl_under_valgrind() ? 20 : 100;
$code = <<<'PHP'
$servers = json_decode($argv[1], true);
[$host, $port] = explode(':', $argv[2]);
$n = (int)$argv[3];
$r = stream_socket_client("tcp://$host:$port");
$cmd = function (string ...$a) use ($r) {
    $s = '*' . count($a) . "\r\n";
    foreach ($a as $x) $s .= '$' . strlen($x) . "\r\n$x\r\n";
    fwrite($r, $s);
    $line = fgets($r);
    if ($line[0] === '$') { $len = (int)substr($line, 1); return $len < 0 ? null : substr(fread($r, $len + 2), 0, $len); }
    return rtrim(substr($line, 1));
};
$lock = new RedLock($servers, 5);
for ($i = 0; $i < $n; $i++) {
    $t = $lock->lock('rl105', 5000, 60.0);
    if ($t === null) { echo "not acquired\n"; exit(1); }
    $v = (int)$cmd('GET', 'rl105-counter');
    usleep(200);
    $cmd('SET', 'rl105-counter', (string)($v + 1));
    if (!$lock->unlock('rl105', $t)) { echo "unlock failed\n"; exit(1); }
}
echo "done\n";
PHP;
$children = [];
for ($p = 0; $p < 6; $p++) {
    $children[] = rl_php_child_start('$argv = ' . var_export(['-', json_encode($servers), rl_test_server(3), (string)$n], true) . ';' . $code);
}
$ok = 0;
foreach ($children as $c) {
    [$exit, $out, $err] = $c->wait(300);
    $ok += ($exit === 0 && trim($out) === 'done');
    if ($exit !== 0) echo "child failed: $out $err\n";
}
echo "children ok: $ok\n";
echo "counter: ", $counter->get('rl105-counter') === (string)(6 * $n) ? 'no update lost' : 'lost updates: ' . $counter->get('rl105-counter'), "\n";
$counter->del('rl105-counter');
?>
--EXPECT--
children ok: 6
counter: no update lost
